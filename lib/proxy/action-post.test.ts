/**
 * @jest-environment node
 */
import { isDecodableReply } from './action-post';

const reply = (parts: Record<string, string>) => isDecodableReply((id) => parts[id]);
const bound = (parts: Record<string, string>) => isDecodableReply((id) => parts[id], 'bound');

describe("an action's reply, checked before Next hands it to React", () => {
  it("lets through what the site's own forms send", () => {
    // The island: the state and the form's fields; a no-JavaScript form's bound action: its state in part 1.
    expect(reply({ '0': '[{"status":"idle","values":{"name":"$$5 pesos"}},"$K1"]' })).toBe(true);
    expect(bound({ '0': '{"id":"60aa11","bound":"$@1"}', '1': '[{"status":"idle"}]' })).toBe(true);
    expect(reply({ '0': '[]' })).toBe(true);
    expect(reply({ '0': '["$undefined", null, 1, true, {"__proto__": {"x": 1}}]' })).toBe(true);
  });

  it('refuses arguments Next cannot apply the action to: not a list, or a list over 1,000', () => {
    for (const root of ['""', '1', 'null', '{}', `[${'0,'.repeat(1000)}0]`])
      expect([root.slice(0, 10), reply({ '0': root })]).toEqual([root.slice(0, 10), false]);
    expect(reply({ '0': `[${'0,'.repeat(999)}0]` })).toBe(true);
    expect(bound({ '0': '[]' })).toBe(false);
    expect(bound({ '0': 'null' })).toBe(false);
    expect(bound({ '0': '{"id":"60aa11","bound":"$@1"}', '1': '"x"' })).toBe(false);
  });

  it('refuses what React cannot decode: bad JSON, a missing part, a tag it would throw on', () => {
    for (const root of [
      '[',
      'x',
      '',
      '["$"]',
      '["$Q1"]',
      '["$1"]',
      '["$h1"]',
      '["$Bx"]',
      '["$nx"]',
      '["$iabc"]',
    ])
      expect([root, reply({ '0': root })]).toEqual([root, false]);
    expect(bound({ '0': '{"bound":"$@2"}', '1': '[]' })).toBe(false);
    expect(bound({ '0': '{"bound":"$@1"}', '1': '[' })).toBe(false);
    expect(reply({})).toBe(false);
  });

  it('walks a deeply nested reply without recursion', () => {
    const deep = `${'['.repeat(10_000)}"$Q1"${']'.repeat(10_000)}`;
    expect(reply({ '0': deep })).toBe(false);
  });

  it('follows parts that point at each other, or at themselves, once', () => {
    expect(reply({ '0': '["$@1"]', '1': '["$@0"]' })).toBe(true);
    expect(reply({ '0': '["$@a"]', '10': '[1]' })).toBe(true);
    expect(reply({ '0': '["$@a"]', '1': '[1]' })).toBe(false);
  });
});
