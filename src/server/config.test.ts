import { describe, expect, it } from 'vitest';
import { ConfigError, contrastWithWhite, loadConfig } from './config';

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ PORT: 3000, HOST: '127.0.0.1', DATA_DIR: './data', DEMO_DATA: true, PUBLIC_URL: 'http://localhost:3000', ENROLMENT_MODE: 'open', AUTH_RATE_LIMIT_PER_IP: 30, BRAND_NAME: 'Wellhaven' });
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.HELP_VIDEO_IDS).toEqual([]);
  });

  it('names every bad key', () => {
    try {
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'not a url', BRAND_PRIMARY_COLOR: 'teal', DEMO_DATA: 'maybe' });
      expect.unreachable('loadConfig accepted bad values');
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      const message = (err as Error).message;
      for (const key of ['PORT', 'DATABASE_URL', 'BRAND_PRIMARY_COLOR', 'DEMO_DATA']) expect(message).toContain(key);
    }
  });

  it('parses lists and booleans', () => {
    const config = loadConfig({ HELP_VIDEO_IDS: ' abcdefg, hijklmn ,', DEMO_DATA: '0' });
    expect(config.HELP_VIDEO_IDS).toEqual(['abcdefg', 'hijklmn']);
    expect(config.DEMO_DATA).toBe(false);
  });

  it('never trusts every proxy: a hop count or the proxies themselves', () => {
    expect(loadConfig({}).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '1' }).TRUST_PROXY).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 192.0.2.1' }).TRUST_PROXY).toBe('10.0.0.0/8,192.0.2.1');
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(/TRUST_PROXY/);
  });

  it('seeds demo data by default only on the embedded database; DEMO_DATA decides when set', () => {
    const pg = 'postgres://app@db:5432/wellhaven';
    expect(loadConfig({}).DEMO_DATA).toBe(true);
    expect(loadConfig({ DATABASE_URL: pg }).DEMO_DATA).toBe(false);
    expect(loadConfig({ DATABASE_URL: pg, DEMO_DATA: '1' }).DEMO_DATA).toBe(true);
    expect(loadConfig({ DEMO_DATA: '0' }).DEMO_DATA).toBe(false);
  });
});

describe('BRAND_PRIMARY_COLOR', () => {
  it('must carry white text at WCAG AA', () => {
    expect(contrastWithWhite('#000000')).toBeCloseTo(21, 0);
    expect(contrastWithWhite('#ffffff')).toBeCloseTo(1, 5);
    expect(contrastWithWhite('#0f766e')).toBeGreaterThan(4.5);
    expect(loadConfig({ BRAND_PRIMARY_COLOR: '#1d4ed8' }).BRAND_PRIMARY_COLOR).toBe('#1d4ed8');
    expect(() => loadConfig({ BRAND_PRIMARY_COLOR: '#22c55e' })).toThrow(/BRAND_PRIMARY_COLOR: must be dark enough/);
  });
});

describe('ADMIN_COMPANY', () => {
  it('names an employer, so it may not mix Latin with Cyrillic or Greek letters', () => {
    expect(loadConfig({ ADMIN_COMPANY: ' Programme Office ' }).ADMIN_COMPANY).toBe('Programme Office');
    expect(() => loadConfig({ ADMIN_COMPANY: 'Programme Оffice' })).toThrow(/ADMIN_COMPANY: must not mix Latin letters with Cyrillic or Greek letters/);
  });
});
