import { render, screen } from '@testing-library/react';
import { ErrorBoundary } from './error-boundary';

function Broken(): never {
  throw new Error('Failed to load chunk /_next/static/chunks/abc.js for ana@example.mx');
}

describe('ErrorBoundary', () => {
  let consoleError: jest.SpyInstance;

  beforeEach(() => {
    consoleError = jest.spyOn(console, 'error').mockImplementation(() => {});
  });

  afterEach(() => consoleError.mockRestore());

  it('shows its children while nothing fails', () => {
    render(
      <ErrorBoundary name="carrusel" fallback={<p>Sin carrusel</p>}>
        <p>Carrusel</p>
      </ErrorBoundary>,
    );
    expect(screen.getByText('Carrusel')).toBeInTheDocument();
    expect(screen.queryByText('Sin carrusel')).not.toBeInTheDocument();
    expect(consoleError).not.toHaveBeenCalled();
  });

  it('shows the fallback instead of a failed piece, and keeps the rest of the page', () => {
    render(
      <main>
        <h1>Impulso Digital</h1>
        <ErrorBoundary name="carrusel" fallback={<p>Sin carrusel</p>}>
          <Broken />
        </ErrorBoundary>
      </main>,
    );
    expect(screen.getByRole('heading', { name: 'Impulso Digital' })).toBeInTheDocument();
    expect(screen.getByText('Sin carrusel')).toBeInTheDocument();
  });

  it('logs the failure once, in Spanish, without the error message (which could carry personal data)', () => {
    render(
      <ErrorBoundary name="carrusel" fallback={null}>
        <Broken />
      </ErrorBoundary>,
    );
    const ours = consoleError.mock.calls.filter((call) =>
      String(call[0]).startsWith('No se pudo cargar una parte'),
    );
    expect(ours).toEqual([
      ['No se pudo cargar una parte de la página (carrusel); el resto sigue funcionando.', 'Error'],
    ]);
    expect(JSON.stringify(ours)).not.toContain('ana@example.mx');
  });
});
