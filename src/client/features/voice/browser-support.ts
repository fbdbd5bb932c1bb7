/** What the voice block needs to know about the browser, read once from `window`. */
export interface NavigatorFacts {
  /** `SpeechRecognition` or `webkitSpeechRecognition` exists. */
  hasSpeechRecognition: boolean;
  userAgent: string;
  /** `navigator.userAgentData.mobile` where the browser offers it. */
  userAgentDataMobile?: boolean | undefined;
  /** `navigator.maxTouchPoints`: iPadOS reports a desktop Mac user agent with touch. */
  maxTouchPoints?: number | undefined;
}

export interface VoiceSupport {
  supported: boolean;
  isChrome: boolean;
  isSafari: boolean;
  isMobile: boolean;
}

const CHROMIUM = /\b(?:Chrome|CriOS|Chromium)\//;
const NOT_SAFARI = /\b(?:Chrome|CriOS|Chromium|FxiOS|EdgiOS|Android)\b/;
const MOBILE = /Android|iPhone|iPad|iPod|Mobi/;

/**
 * Voice is offered only where speech recognition exists and the browser is Chrome, Safari
 * or not mobile (spec section 5). Chromium-based browsers count as Chrome: they carry the
 * same recogniser.
 */
export function detectVoiceSupport(facts: NavigatorFacts): VoiceSupport {
  const ua = facts.userAgent;
  const isChrome = CHROMIUM.test(ua);
  const isSafari = /\bSafari\//.test(ua) && !NOT_SAFARI.test(ua);
  const touchMac = /Macintosh/.test(ua) && (facts.maxTouchPoints ?? 0) > 1;
  const isMobile = facts.userAgentDataMobile ?? (MOBILE.test(ua) || touchMac);
  const supported = facts.hasSpeechRecognition && (isChrome || isSafari || !isMobile);
  return { supported, isChrome, isSafari, isMobile };
}

interface SpeechWindow {
  SpeechRecognition?: unknown;
  webkitSpeechRecognition?: unknown;
  navigator: Navigator & { userAgentData?: { mobile?: boolean } };
}

/** Reads the facts from a real window (the only impure part of detection). */
export function readNavigatorFacts(win: SpeechWindow): NavigatorFacts {
  return {
    hasSpeechRecognition: typeof win.SpeechRecognition === 'function' || typeof win.webkitSpeechRecognition === 'function',
    userAgent: win.navigator.userAgent,
    userAgentDataMobile: win.navigator.userAgentData?.mobile,
    maxTouchPoints: win.navigator.maxTouchPoints,
  };
}
