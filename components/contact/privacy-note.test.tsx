import { render, screen } from '@testing-library/react';
import { brand } from '@/lib/content';
import { PrivacyNote } from './privacy-note';

describe('the short privacy notice under the form', () => {
  it('says who is responsible and why, and opens the full notice in a new tab, so what was typed stays', () => {
    render(<PrivacyNote privacyNoticeUrl="/aviso-de-privacidad" />);
    const note = screen.getByText(new RegExp(`${brand.legalName} es responsable de tus datos`));
    expect(note).toHaveTextContent(/para responder tu solicitud/);
    const link = screen.getByRole('link', { name: 'Aviso de privacidad' });
    expect(link).toHaveAttribute('href', '/aviso-de-privacidad');
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', expect.stringMatching(/noopener/));
  });
});
