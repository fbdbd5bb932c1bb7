import { describe, expect, it } from 'vitest';
import { detectVoiceSupport, readNavigatorFacts } from './browser-support';

const UA = {
  chromeAndroid:
    'Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
  chromeDesktop: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  chromeIos:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0.6778.73 Mobile/15E148 Safari/604.1',
  safariIphone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  safariMac:
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
  firefoxAndroid: 'Mozilla/5.0 (Android 14; Mobile; rv:131.0) Gecko/131.0 Firefox/131.0',
  firefoxIos:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) FxiOS/131.0 Mobile/15E148 Safari/605.1.15',
  firefoxDesktop: 'Mozilla/5.0 (X11; Linux x86_64; rv:131.0) Gecko/20100101 Firefox/131.0',
  edgeDesktop:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
  samsung:
    'Mozilla/5.0 (Linux; Android 14; SM-S911B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/25.0 Chrome/121.0.0.0 Mobile Safari/537.36',
};

describe('detectVoiceSupport', () => {
  it.each([
    ['Chrome on Android', UA.chromeAndroid, true],
    ['Chrome on desktop', UA.chromeDesktop, true],
    ['Chrome on iOS', UA.chromeIos, true],
    ['Safari on iPhone', UA.safariIphone, true],
    ['Safari on Mac', UA.safariMac, true],
    ['Edge on desktop', UA.edgeDesktop, true],
    ['Samsung Internet (Chromium)', UA.samsung, true],
    ['Firefox on desktop (not mobile)', UA.firefoxDesktop, true],
    ['Firefox on Android (mobile, neither Chrome nor Safari)', UA.firefoxAndroid, false],
    ['Firefox on iOS (mobile, neither Chrome nor Safari)', UA.firefoxIos, false],
  ])('%s with speech recognition: supported=%s', (_label, userAgent, supported) => {
    expect(detectVoiceSupport({ hasSpeechRecognition: true, userAgent }).supported).toBe(supported);
  });

  it.each(Object.entries(UA))('%s without speech recognition is never supported', (_label, userAgent) => {
    expect(detectVoiceSupport({ hasSpeechRecognition: false, userAgent }).supported).toBe(false);
  });

  it('recognises Safari and only Safari as Safari', () => {
    expect(detectVoiceSupport({ hasSpeechRecognition: true, userAgent: UA.safariIphone }).isSafari).toBe(true);
    expect(detectVoiceSupport({ hasSpeechRecognition: true, userAgent: UA.safariMac }).isSafari).toBe(true);
    for (const ua of [UA.chromeAndroid, UA.chromeDesktop, UA.chromeIos, UA.edgeDesktop, UA.firefoxIos, UA.samsung]) {
      expect(detectVoiceSupport({ hasSpeechRecognition: true, userAgent: ua }).isSafari).toBe(false);
    }
  });

  it('recognises Chrome', () => {
    expect(detectVoiceSupport({ hasSpeechRecognition: true, userAgent: UA.chromeAndroid })).toMatchObject({
      isChrome: true,
      isMobile: true,
    });
    expect(detectVoiceSupport({ hasSpeechRecognition: true, userAgent: UA.firefoxDesktop })).toMatchObject({
      isChrome: false,
      isMobile: false,
    });
  });

  it('prefers userAgentData.mobile over the user agent string', () => {
    const unknownBrowser = 'SomeBrowser/1.0 (X11; Linux)';
    expect(detectVoiceSupport({ hasSpeechRecognition: true, userAgent: unknownBrowser, userAgentDataMobile: true }).supported).toBe(false);
    expect(detectVoiceSupport({ hasSpeechRecognition: true, userAgent: unknownBrowser, userAgentDataMobile: false }).supported).toBe(true);
  });

  it('an iPad presenting a Mac user agent with touch is mobile', () => {
    const facts = { hasSpeechRecognition: true, userAgent: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) Gecko/20100101 Firefox/131.0' };
    expect(detectVoiceSupport({ ...facts, maxTouchPoints: 5 })).toMatchObject({ isMobile: true, supported: false });
    expect(detectVoiceSupport({ ...facts, maxTouchPoints: 0 })).toMatchObject({ isMobile: false, supported: true });
  });
});

describe('readNavigatorFacts', () => {
  const navigator = { userAgent: UA.chromeAndroid, maxTouchPoints: 5 } as Navigator;

  it('finds the prefixed or unprefixed constructor', () => {
    expect(readNavigatorFacts({ navigator, webkitSpeechRecognition: function Fake() {} }).hasSpeechRecognition).toBe(true);
    expect(readNavigatorFacts({ navigator, SpeechRecognition: class Fake {} }).hasSpeechRecognition).toBe(true);
    expect(readNavigatorFacts({ navigator }).hasSpeechRecognition).toBe(false);
    expect(readNavigatorFacts({ navigator, SpeechRecognition: {} }).hasSpeechRecognition).toBe(false);
  });

  it('reads the user agent, userAgentData and touch points', () => {
    const withData = Object.assign(Object.create(null) as Navigator, navigator, { userAgentData: { mobile: true } });
    expect(readNavigatorFacts({ navigator: withData })).toEqual({
      hasSpeechRecognition: false,
      userAgent: UA.chromeAndroid,
      userAgentDataMobile: true,
      maxTouchPoints: 5,
    });
  });
});
