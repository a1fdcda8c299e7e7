import { describe, expect, it } from 'vitest';
import { creditNotice, licenceStatus } from './credit-alerts';

const licence = (used: number, expireOn: string, activatedOn = '2026-10-01T10:00:00Z') => ({ totalCredits: 1000, utilizedCredits: used, expireOn, activatedOn });

describe('licence alerts (docs/PRODUCT.md section 4)', () => {
  it('warns from 75 % up to but not including 90 %, and is critical from 90 %', () => {
    expect(licenceStatus(licence(749, '2027-06-30'), '2026-11-24')?.level).toBe('none');
    expect(licenceStatus(licence(750, '2027-06-30'), '2026-11-24')).toMatchObject({ level: 'warning', percentUtilized: 75 });
    expect(licenceStatus(licence(899, '2027-06-30'), '2026-11-24')?.level).toBe('warning');
    expect(licenceStatus(licence(900, '2027-06-30'), '2026-11-24')).toMatchObject({ level: 'critical', percentUtilized: 90 });
  });

  it('warns with more than 7 and at most 15 days left, critical at 7 or fewer', () => {
    expect(licenceStatus(licence(0, '2026-12-10'), '2026-11-24')).toMatchObject({ level: 'none', daysLeft: 16 });
    expect(licenceStatus(licence(0, '2026-12-09'), '2026-11-24')).toMatchObject({ level: 'warning', daysLeft: 15 });
    expect(licenceStatus(licence(0, '2026-12-02'), '2026-11-24')).toMatchObject({ level: 'warning', daysLeft: 8 });
    expect(licenceStatus(licence(0, '2026-12-01'), '2026-11-24')).toMatchObject({ level: 'critical', daysLeft: 7 });
  });

  it('computes percent utilised and percent of days elapsed to two decimals', () => {
    // 1/3 used; activated 2026-10-01, expires 2026-12-31 (91 days), today 2026-11-24 (54 days in).
    expect(licenceStatus({ totalCredits: 3, utilizedCredits: 1, expireOn: '2026-12-31', activatedOn: '2026-10-01T00:00:00Z' }, '2026-11-24'))
      .toMatchObject({ percentUtilized: 33.33, percentDaysElapsed: 59.34 });
  });

  it('regression: an activation after 18:30 UTC counts from its IST date, not the UTC date before it', () => {
    // 2026-10-01T20:00:00Z is 2026-10-02 01:30 IST: 90 days to 2026-12-31, 53 of them elapsed on 2026-11-24.
    expect(licenceStatus({ totalCredits: 3, utilizedCredits: 1, expireOn: '2026-12-31', activatedOn: '2026-10-01T20:00:00Z' }, '2026-11-24'))
      .toMatchObject({ percentDaysElapsed: 58.89 });
  });

  it('has no status without a live licence, and the notice is the worst of both', () => {
    expect(licenceStatus({ totalCredits: 0, utilizedCredits: 0, expireOn: undefined, activatedOn: undefined }, '2026-11-24')).toBeUndefined();
    const warning = licenceStatus(licence(800, '2027-06-30'), '2026-11-24');
    const critical = licenceStatus(licence(0, '2026-11-25'), '2026-11-24');
    expect([creditNotice([undefined, undefined]), creditNotice([warning, undefined]), creditNotice([warning, critical])]).toEqual(['none', 'warning', 'critical']);
  });
});
