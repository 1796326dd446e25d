import { NotFoundPage } from '@/components/layout/not-found-page';

// An address no route serves (/api/nada, /nada.txt): the proxy sends every other unknown page to `/`.
export default NotFoundPage;
