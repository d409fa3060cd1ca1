import { describe, expect, it } from 'vitest';
import { maskSecret } from './mask.js';

describe('maskSecret', () => {
  it('shows the dots and the last 4 characters of a secret of 8 or more (a 10-digit account number too)', () => {
    expect(maskSecret('1000405525')).toBe('••••5525');
    expect(maskSecret('abcd1234')).toBe('••••1234');
    expect(maskSecret('fake-client-secret-9f3a')).toBe('••••9f3a');
  });

  it('shows only the dots when the last 4 would be more than half of the value', () => {
    for (const value of ['', 'tok', '1234', 'abc1234']) expect(maskSecret(value), value).toBe('••••');
  });
});
