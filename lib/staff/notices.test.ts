import { noticeText, RELEASE_NOTICES } from './notices';

const KEY = '0b0c5f3e-7a51-4c1e-9a0f-2f7c1b9d8e61';

describe("the staff page's notices", () => {
  it('says its own words for each code it knows, with the key it acted on', () => {
    expect(noticeText('liberada', KEY)).toBe(
      `Solicitud ${KEY} liberada: se entrega como cualquier otra.`,
    );
    for (const code of Object.values(RELEASE_NOTICES)) expect(noticeText(code, KEY)).toContain(KEY);
  });

  it('shows nothing of a text written in the address, nor of a key that is not one', () => {
    const words = 'Llame al 55 1234 5678 para reactivar su cuenta';
    for (const [code, key] of [
      [words, KEY],
      ['liberada', words],
      ['liberada', `${KEY} ${words}`],
      ['liberada', 'dead-beef'],
      ['__proto__', KEY],
      ['constructor', KEY],
      ['toString', KEY],
      ['hasOwnProperty', KEY],
      [undefined, KEY],
      ['liberada', undefined],
    ]) {
      expect(noticeText(code, key)).toBeUndefined();
    }
  });
});
