import { NotFoundPage } from '@/components/layout/not-found-page';

// A page that calls notFound() (an unknown variant, the staff area when it is not configured). Next sends this tree
// with every page, in place of its English default.
export default NotFoundPage;
