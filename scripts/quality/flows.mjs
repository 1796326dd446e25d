// Interactions: one Lighthouse user flow (mobile preset, applied throttling,
// 4x CPU) on the contact form and a carousel, reduced to each step's INP.
// The same steps run on a floor page with no JavaScript (bare-app.mjs), so
// a step is budgeted against what the same clicks and keystrokes cost there.
import { startFlow } from 'lighthouse';
import { launchBrowser } from './browser.mjs';

// lighthouse:default is the mobile preset (moto g power screen, slow 4G, 4x CPU);
// 'devtools' applies that throttling while the steps really run.
const FLAGS = { throttlingMethod: 'devtools', onlyCategories: ['performance'] };
// The page is opened before the first step: the same screen as the preset's, so nothing reflows when the step starts.
const VIEWPORT = { width: 412, height: 823, deviceScaleFactor: 1.75, isMobile: true };

export const FIELDS = [
  ['#contacto-name', 'Ana López'],
  ['#contacto-mail', 'ana@example.com'],
  ['#contacto-phone', '5512345678'],
  ['#contacto-reason', 'Quiero una página web para mi negocio.'],
];
// lib/content.ts, carouselCopy (a changed label makes this step time out, naming the selector).
const CAROUSEL = 'section[aria-roledescription="carousel"]';
const NEXT = 'button[aria-label="Logotipo siguiente"]';
const PAUSE = 'button[aria-label="Pausar el carrusel"], button[aria-label="Reproducir el carrusel"]';
const THANKS = '[role="status"] h3';
const TIMEOUT = 30_000;

/** The slowest interaction's parts and target, for the log: "input 7 + processing 112 + presentation 16 ms on input#contacto-phone". */
function worstInteraction(insight) {
  const parts = insight?.details?.items ?? [];
  const table = parts.find((part) => part.type === 'table')?.items ?? [];
  const node = parts.find((part) => part.type === 'node');
  if (table.length === 0) return '';
  const ms = (subpart) => Math.round(table.find((item) => item.subpart === subpart)?.duration ?? 0);
  const target = node?.selector?.split(' > ').pop() ?? '?';
  return `input ${ms('inputDelay')} + processing ${ms('processingDuration')} + presentation ${ms('presentationDelay')} ms on ${target}`;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs the flow on `url` and returns { typing, carousel, sending }, each
 * { inpMs, tbtMs, worst } (carousel null when `carousel` is false), plus the
 * time from the submit click to the thanks (thanksMs, throttled network).
 */
export async function interactionFlow(url, { carousel }) {
  const started = Date.now();
  const browser = await launchBrowser(VIEWPORT);
  try {
    const page = await browser.newPage();
    page.setDefaultTimeout(TIMEOUT);
    await page.goto(url, { waitUntil: 'networkidle0' });
    await page.$eval(FIELDS[0][0], (input) => input.scrollIntoView({ block: 'center' }));
    // Hydrated: the island disables the empty form's button (the floor's never is).
    await page.waitForFunction(
      (name) => {
        const form = document.querySelector(name)?.form;
        return form && (form.dataset.floor === 'true' || form.querySelector('button[type="submit"]')?.disabled);
      },
      {},
      FIELDS[0][0],
    );
    await sleep(500);

    const flow = await startFlow(page, { flags: FLAGS });
    const submit = () => page.$('form:has(#contacto-name) button[type="submit"]');

    await flow.startTimespan({ name: 'typing' });
    for (const [selector, value] of FIELDS) {
      await page.click(selector);
      await page.keyboard.type(value, { delay: 60 });
    }
    // Valid and the rules arrived: the button is enabled again.
    await page.waitForSelector('form:has(#contacto-name) button[type="submit"]:not([disabled])');
    await sleep(500);
    await flow.endTimespan();

    if (carousel) {
      await flow.startTimespan({ name: 'carousel' });
      await page.$eval(CAROUSEL, (section) => section.scrollIntoView({ block: 'center' }));
      const ready = await page.waitForSelector(`${CAROUSEL}[data-ready="true"]`);
      await sleep(300);
      await (await ready.$(NEXT)).click();
      await sleep(600);
      await (await ready.$(PAUSE)).click();
      await sleep(500);
      await flow.endTimespan();
    }

    await flow.startTimespan({ name: 'sending' });
    const clicked = Date.now();
    await (await submit()).click();
    await page.waitForSelector(THANKS, { visible: true });
    const thanksMs = Date.now() - clicked;
    await sleep(300);
    await flow.endTimespan();

    const result = await flow.createFlowResult();
    const steps = Object.fromEntries(
      result.steps.map((step) => {
        const audit = (id) => step.lhr.audits[id];
        const value = (id) => (typeof audit(id)?.numericValue === 'number' ? Math.round(audit(id).numericValue) : null);
        return [step.name, { inpMs: value('interaction-to-next-paint'), tbtMs: value('total-blocking-time'), worst: worstInteraction(audit('inp-breakdown-insight')) }];
      }),
    );
    return { typing: steps.typing, carousel: steps.carousel ?? null, sending: steps.sending, thanksMs, seconds: Math.round((Date.now() - started) / 100) / 10 };
  } finally {
    await browser.close();
  }
}
