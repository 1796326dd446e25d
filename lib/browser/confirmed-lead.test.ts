import { act, renderHook } from '@testing-library/react';
import { leaveAfterLead, MAX_HOLD_MS, useLeads } from './confirmed-lead';

const DELAY = 2000;
let keyCounter = 0;
const freshKey = () => `clave-${(keyCounter += 1)}`;

/** The tags listening (`measured`) and a confirmed enquiry whose page should leave after DELAY. */
function confirmLead(measured: boolean) {
  const { result } = renderHook(() => useLeads(measured));
  const leave = jest.fn();
  const key = freshKey();
  act(() => {
    leaveAfterLead(key, DELAY, leave);
  });
  return { leads: result, leave, key };
}

describe('leaving after a confirmed enquiry', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('hands a lead confirmed before the tags listen to them once they do (a page rendered from a form sent without scripts)', () => {
    const leave = jest.fn();
    const key = freshKey();
    leaveAfterLead(key, DELAY, leave);
    const { result } = renderHook(() => useLeads(true));
    expect(result.current.map((lead) => lead.key)).toEqual([key]);
    act(() => result.current[0]?.sent());
    jest.advanceTimersByTime(DELAY);
    expect(leave).toHaveBeenCalledTimes(1);
  });

  it('leaves at most MAX_HOLD_MS after the delay when no tag ever listens', () => {
    const leave = jest.fn();
    leaveAfterLead(freshKey(), DELAY, leave);
    jest.advanceTimersByTime(DELAY + MAX_HOLD_MS - 1);
    expect(leave).not.toHaveBeenCalled();
    jest.advanceTimersByTime(1);
    expect(leave).toHaveBeenCalledTimes(1);
    // The tags with nothing to measure take the waiting lead, so the next test starts clean.
    renderHook(() => useLeads(false));
  });

  it('hands the lead to the tags and leaves after the delay when its events went out in time', () => {
    const { leads, leave, key } = confirmLead(true);
    expect(leads.current.map((lead) => lead.key)).toEqual([key]);
    act(() => leads.current[0]?.sent());
    jest.advanceTimersByTime(DELAY);
    expect(leave).toHaveBeenCalledTimes(1);
  });

  it('holds the redirect until gtag has sent the events', () => {
    const { leads, leave } = confirmLead(true);
    jest.advanceTimersByTime(DELAY + 400);
    expect(leave).not.toHaveBeenCalled();
    act(() => leads.current[0]?.sent());
    expect(leave).toHaveBeenCalledTimes(1);
  });

  it('never holds it more than MAX_HOLD_MS (a blocked gtag.js)', () => {
    const { leave } = confirmLead(true);
    jest.advanceTimersByTime(DELAY + MAX_HOLD_MS - 1);
    expect(leave).not.toHaveBeenCalled();
    jest.advanceTimersByTime(1);
    expect(leave).toHaveBeenCalledTimes(1);
    expect(MAX_HOLD_MS).toBe(1000);
  });

  it('announces a lead once, even when the form asks twice (React re-running its effect)', () => {
    const { result } = renderHook(() => useLeads(true));
    const key = freshKey();
    const first = jest.fn();
    const second = jest.fn();
    act(() => {
      const cancel = leaveAfterLead(key, DELAY, first);
      cancel();
      leaveAfterLead(key, DELAY, second);
    });
    expect(result.current).toHaveLength(1);
    act(() => result.current[0]?.sent());
    jest.advanceTimersByTime(DELAY);
    expect(first).not.toHaveBeenCalled();
    expect(second).toHaveBeenCalledTimes(1);
  });

  it('with nothing to measure, keeps no lead and does not hold the redirect', () => {
    const { leads, leave } = confirmLead(false);
    expect(leads.current).toEqual([]);
    jest.advanceTimersByTime(DELAY);
    expect(leave).toHaveBeenCalledTimes(1);
  });

  it("hands the tags the confirmed enquiry's e-mail and phone with its key, when the form has them", () => {
    const { result } = renderHook(() => useLeads(true));
    const key = freshKey();
    act(() => {
      leaveAfterLead(key, DELAY, jest.fn(), { mail: 'ana@example.mx', phone: '5512345678' });
    });
    expect(result.current.map((lead) => [lead.key, lead.contact])).toEqual([
      [key, { mail: 'ana@example.mx', phone: '5512345678' }],
    ]);
    act(() => result.current[0]?.sent());
  });
});
