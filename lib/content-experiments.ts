/**
 * Experimentos A/B de la página principal: aquí, junto a lib/content.ts, la agencia prueba un texto contra otro y
 * ve en /equipo cuál trae más solicitudes (docs/contenido.md explica cómo empezar, leer y terminar uno).
 *
 * Cada experimento tiene:
 * - `name`: su nombre, en minúsculas con guiones (`titulo-precio`), de 40 caracteres como máximo; es el que se ve
 *   en /equipo, en los avisos y en Google Analytics.
 * - `runs`: `true` mientras corre. Con ninguno en `true`, la página es la de siempre.
 * - `variants`: la primera es siempre la página actual (`id: 'control'`, sin cambios); después, de 1 a 3
 *   variantes (`id: 'b'`, `'c'`, `'d'`), cada una con una etiqueta y lo que cambia (`overrides`):
 *   - `'hero.headline'`: el título grande; `'hero.lead'`: el texto debajo;
 *   - `'hero.formHeading'`: el título del formulario; `'contactForm.submit'`: el botón (hoy «Enviar»);
 *   - `firstSection`: qué sección va primero después del formulario: `'benefits'`, `'clients'`, `'services'` o
 *     `'digital'` (el formulario siempre queda arriba);
 *   - `'services.heading'`: el título de los servicios; `'services.items.1.text'` (o `.2.`, `.3.`): el texto del
 *     primer (segundo, tercer) servicio.
 * - `split`: qué porcentaje de visitantes ve cada variante, en el mismo orden; suma 100.
 * - `rule` (opcional): cuántos visitantes y solicitudes necesita cada variante antes de nombrar una ganadora.
 *   Decídelo antes de empezar y no lo cambies al ver los resultados.
 *
 * Dos experimentos que corren a la vez no pueden cambiar la misma parte. `npm run build` revisa los que corren y se
 * detiene diciendo qué corregir.
 */

import type { ExperimentDefinition } from './experiments/shape';

export const experiments: ExperimentDefinition[] = [
  {
    // Ejemplo: ¿un título que habla de precio trae más solicitudes que el actual? No corre (`runs: false`).
    name: 'titulo-asesoria',
    runs: false,
    variants: [
      { id: 'control', label: 'Página actual' },
      {
        id: 'b',
        label: 'Título de asesoría gratis',
        overrides: {
          'hero.headline': 'Asesoría gratis para conseguir clientes en internet',
          'contactForm.submit': 'Quiero mi asesoría',
        },
      },
    ],
    split: [50, 50],
    rule: { minVisitors: 1000, minLeads: 30 },
  },
];
