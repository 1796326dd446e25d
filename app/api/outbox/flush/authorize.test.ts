/**
 * @jest-environment node
 */
import { isAuthorizedFlush } from './authorize';

describe('who may flush the outbox', () => {
  it('only a request carrying Authorization: Bearer <CRON_SECRET>', () => {
    expect(isAuthorizedFlush('Bearer s3cret-value', 's3cret-value')).toBe(true);
    for (const header of [null, '', 'Bearer', 'Bearer ', 'bearer s3cret-value', 'Bearer s3cret-valuE', 'Bearer s3cret-value ', 's3cret-value', 'Basic s3cret-value']) {
      expect([header, isAuthorizedFlush(header, 's3cret-value')]).toEqual([header, false]);
    }
  });

  it('no one when CRON_SECRET is unset or empty', () => {
    expect(isAuthorizedFlush('Bearer ', undefined)).toBe(false);
    expect(isAuthorizedFlush('Bearer undefined', undefined)).toBe(false);
    expect(isAuthorizedFlush('Bearer ', '')).toBe(false);
  });
});
