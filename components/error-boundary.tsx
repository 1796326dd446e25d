'use client';

import { Component, type ReactNode } from 'react';
import { errorName } from '@/lib/server/error-name';

type Props = {
  children: ReactNode;
  /** Shown instead of the children from the first error on (often nothing). */
  fallback: ReactNode;
  /** The piece it guards, in Spanish, for the log: "motor del carrusel". */
  name: string;
};

/**
 * Keeps a failure (typically a lazily loaded chunk that never arrived) to the
 * piece it wraps: without a boundary React unmounts the whole page, and with
 * it any pending redirect. Logs once, with the piece's name and the error's
 * kind only: nothing a visitor typed can end up in the console.
 */
export class ErrorBoundary extends Component<Props, { failed: boolean }> {
  state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  componentDidCatch(error: unknown) {
    console.error(
      `No se pudo cargar una parte de la página (${this.props.name}); el resto sigue funcionando.`,
      errorName(error),
    );
  }

  render() {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}
