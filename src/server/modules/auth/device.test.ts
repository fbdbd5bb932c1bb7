import { describe, expect, it } from 'vitest';
import { describeDevice } from './device';

describe('describeDevice', () => {
  it.each([
    ['Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36', 'Chrome on Android'],
    ['Mozilla/5.0 (iPhone; CPU iPhone OS 17_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.2 Mobile/15E148 Safari/604.1', 'Safari on iOS'],
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:121.0) Gecko/20100101 Firefox/121.0', 'Firefox on Windows'],
    ['Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 Edg/120.0.0.0', 'Microsoft Edge on macOS'],
    ['Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36', 'Chrome on Linux'],
  ])('names browser and system: %s', (ua, summary) => {
    expect(describeDevice(ua)).toBe(summary);
  });

  it('says what it knows when it knows only one of them', () => {
    expect(describeDevice('Mozilla/5.0 (Windows NT 10.0; Win64; x64)')).toBe('Windows device');
  });

  it.each([[undefined], [''], ['lightMyRequest'], ['curl/8.1'], ['x'.repeat(5000)]])('gives null for %s', (ua) => {
    expect(describeDevice(ua)).toBeNull();
  });

  it('never copies text out of an unknown user agent (bowser would take its first word as the browser)', () => {
    for (const ua of ['Evil Name With Spaces/1.0 (x)', '<script>alert(1)</script>/1.0', 'secret-token-abc/2.0']) expect(describeDevice(ua)).toBeNull();
  });
});
