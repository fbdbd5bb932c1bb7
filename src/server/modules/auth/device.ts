import Bowser from 'bowser';
import { account } from '#shared/messages/account';

// Bowser falls back to the first word of an unknown user agent as the "browser name", so a
// client could write any text there. Only names from bowser's own tables are kept: the summary
// is a fixed vocabulary, never a piece of the raw user agent.
const KNOWN_BROWSERS = new Set(Object.values((Bowser as unknown as { BROWSER_MAP: Record<string, string> }).BROWSER_MAP));
const KNOWN_SYSTEMS = new Set(Object.values((Bowser as unknown as { OS_MAP: Record<string, string> }).OS_MAP));
/** Longer user agents are not parsed (bowser's regular expressions on attacker-sized input). */
const MAX_USER_AGENT = 1024;

/**
 * "Chrome on Android", "Safari on iOS", "Firefox" or "Windows device", from a user agent;
 * null when nothing is recognised. Pure; the raw user agent is never stored.
 */
export function describeDevice(userAgent: string | undefined): string | null {
  if (!userAgent || userAgent.length > MAX_USER_AGENT) return null;
  let parsed: Bowser.Parser.ParsedResult;
  try {
    parsed = Bowser.parse(userAgent);
  } catch {
    return null;
  }
  const browser = parsed.browser.name && KNOWN_BROWSERS.has(parsed.browser.name) ? parsed.browser.name : undefined;
  const system = parsed.os.name && KNOWN_SYSTEMS.has(parsed.os.name) ? parsed.os.name : undefined;
  return account.device.summary(browser, system) ?? null;
}
