import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config';

describe('popup settings in the configuration', () => {
  it('are off by default; the action sites default to the vital-scan and wellness URLs', () => {
    const config = loadConfig({});
    expect(config.POPUPS_DAILY_CAP).toBeUndefined();
    expect(config.POPUPS_QUIET_HOURS).toBeUndefined();
    expect(config.POPUPS_NEXT_RATE_LIMIT_PER_MINUTE).toBe(30);
    expect(config.POPUP_ACTION_URLS).toEqual(['https://example.org/vital-scan', 'https://example.org/daily-wellness']);
    // An http vital-scan URL stays the default destination but is not offered as an https site.
    expect(loadConfig({ VITAL_SCAN_URL: 'http://intranet.example/scan' }).POPUP_ACTION_URLS).toEqual(['https://example.org/daily-wellness']);
  });

  it('parse the cap, the quiet hours and the sites, URL-normalised and de-duplicated', () => {
    const config = loadConfig({ POPUPS_DAILY_CAP: '3', POPUPS_QUIET_HOURS: '22:00-07:00', POPUP_ACTION_URLS: ' https://a.example , https://b.example/x,https://a.example/' });
    expect(config.POPUPS_DAILY_CAP).toBe(3);
    expect(config.POPUPS_QUIET_HOURS).toEqual({ start: '22:00', end: '07:00' });
    expect(config.POPUP_ACTION_URLS).toEqual(['https://a.example/', 'https://b.example/x']);
    expect(loadConfig({ POPUPS_DAILY_CAP: '', POPUPS_QUIET_HOURS: '' })).toMatchObject({ POPUPS_DAILY_CAP: undefined, POPUPS_QUIET_HOURS: undefined });
  });

  it.each([
    [{ POPUPS_DAILY_CAP: '0' }, 'POPUPS_DAILY_CAP'],
    [{ POPUPS_DAILY_CAP: '21' }, 'POPUPS_DAILY_CAP'],
    [{ POPUPS_DAILY_CAP: 'two' }, 'POPUPS_DAILY_CAP'],
    [{ POPUPS_QUIET_HOURS: '22:00' }, 'POPUPS_QUIET_HOURS'],
    [{ POPUPS_QUIET_HOURS: '24:00-07:00' }, 'POPUPS_QUIET_HOURS'],
    [{ POPUPS_QUIET_HOURS: '07:00-07:00' }, 'POPUPS_QUIET_HOURS'],
    [{ POPUP_ACTION_URLS: 'http://plain.example' }, 'POPUP_ACTION_URLS'],
    [{ POPUP_ACTION_URLS: 'https://ok.example,not a url' }, 'POPUP_ACTION_URLS'],
    [{ POPUPS_NEXT_RATE_LIMIT_PER_MINUTE: '0' }, 'POPUPS_NEXT_RATE_LIMIT_PER_MINUTE'],
  ])('refuse %j, naming the key', (env, key) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(key);
  });
});
