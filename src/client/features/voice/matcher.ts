import { voice as text } from '../../lib/messages/voice';
import type { ServiceShortcut } from '#shared/shortcuts';

/** Confidence a final result must exceed to be accepted (spec sections 5 and 9). */
export const CONFIDENCE_THRESHOLD = 0.7;
/** Safari reports lower confidences for clear speech, so it gets a lower bar. */
export const SAFARI_CONFIDENCE_THRESHOLD = 0.6;

/**
 * Matching is case-insensitive on the trimmed text (spec section 5), and accent-insensitive:
 * "clinica" heard for "clínica" still matches.
 */
export function normalise(value: string): string {
  return value.trim().toLowerCase().normalize('NFD').replace(/\p{M}/gu, '');
}

type Rule = (heard: string, shortcut: ServiceShortcut) => boolean;

/**
 * The spec's four matching rules (section 5), strongest first: exact name; name contains the
 * transcript or the transcript contains the name; a keyword either way; a name word. Each
 * receives the normalised transcript. A "name word" is a whitespace-separated word of the
 * name longer than 2 letters. A single shared name word ("care", "virtual", "financial")
 * is the weakest evidence, so it is tried last (docs/decisions/voice-matching-tiers.md).
 */
export const matchRules: readonly { readonly id: MatchRule; readonly test: Rule }[] = [
  { id: 'exact', test: (heard, s) => normalise(s.name) === heard },
  {
    id: 'contains',
    test: (heard, s) => {
      const name = normalise(s.name);
      return name.includes(heard) || heard.includes(name);
    },
  },
  {
    id: 'keyword',
    test: (heard, s) =>
      s.keywords.some((raw) => {
        const keyword = normalise(raw);
        return keyword.length > 0 && (heard.includes(keyword) || keyword.includes(heard));
      }),
  },
  {
    id: 'name-word',
    test: (heard, s) =>
      normalise(s.name)
        .split(/\s+/)
        .some((word) => word.length > 2 && heard.includes(word)),
  },
];

export type MatchRule = 'exact' | 'contains' | 'name-word' | 'keyword';

export interface ShortcutMatch {
  shortcut: ServiceShortcut;
  rule: MatchRule;
}

/**
 * Finds the service a transcript names. Rules are tried strongest first; within a rule the
 * health list is tried before the wealth list and the first service that matches wins.
 * Trying rules in tiers (rather than all four rules per service) is what lets "virtual
 * therapy" reach Virtual Therapy instead of stopping at Virtual Urgent Care on the shared
 * word "virtual".
 */
export function findShortcut(
  transcript: string,
  healthList: readonly ServiceShortcut[],
  wealthList: readonly ServiceShortcut[],
): ShortcutMatch | null {
  const heard = normalise(transcript);
  if (heard.length === 0) return null;
  const candidates = [...healthList, ...wealthList];
  for (const rule of matchRules) {
    const shortcut = candidates.find((s) => rule.test(heard, s));
    if (shortcut) return { shortcut, rule: rule.id };
  }
  return null;
}

/** Whether a final result is confident enough: strictly above the threshold (spec section 5). */
export function isConfident(confidence: number, isSafari: boolean): boolean {
  const threshold = isSafari ? SAFARI_CONFIDENCE_THRESHOLD : CONFIDENCE_THRESHOLD;
  return Number.isFinite(confidence) && confidence > threshold;
}

/** The confidence shown in the low-confidence message, as a whole percentage. */
export function confidencePercent(confidence: number): number {
  if (!Number.isFinite(confidence)) return 0;
  return Math.round(Math.min(1, Math.max(0, confidence)) * 100);
}

export interface RecognitionResult {
  transcript: string;
  confidence: number;
}

export interface InterpretOptions {
  isSafari: boolean;
  healthList: readonly ServiceShortcut[];
  wealthList: readonly ServiceShortcut[];
}

export type RecognitionOutcome =
  | { kind: 'matched'; transcript: string; shortcut: ServiceShortcut; rule: MatchRule; message: string }
  | { kind: 'empty'; message: string }
  | { kind: 'low_confidence'; transcript: string; percent: number; message: string }
  | { kind: 'no_match'; transcript: string; message: string };

/**
 * What to do with one final recognition result, and the message to show for it.
 * An empty transcript is reported as such before its confidence is judged: "no speech" is
 * the more useful thing to tell someone than "low confidence (0%)".
 */
export function interpretResult(result: RecognitionResult, options: InterpretOptions): RecognitionOutcome {
  const transcript = result.transcript.trim();
  if (transcript.length === 0) return { kind: 'empty', message: text.errors.empty };
  if (!isConfident(result.confidence, options.isSafari)) {
    const percent = confidencePercent(result.confidence);
    return { kind: 'low_confidence', transcript, percent, message: text.errors.lowConfidence(percent) };
  }
  const match = findShortcut(transcript, options.healthList, options.wealthList);
  if (!match) return { kind: 'no_match', transcript, message: text.errors.noMatch(transcript) };
  return {
    kind: 'matched',
    transcript,
    shortcut: match.shortcut,
    rule: match.rule,
    message: text.matched(match.shortcut.name),
  };
}

/**
 * The message for a SpeechRecognition error code (spec section 8); `null` for 'aborted',
 * which the spec shows nothing for (it is what stopping the recogniser reports).
 */
export function recognitionErrorMessage(code: string, isSafari: boolean): string | null {
  switch (code) {
    case 'aborted':
      return null;
    case 'no-speech':
      return text.errors.noSpeech;
    case 'audio-capture':
      return text.errors.audioCapture;
    case 'not-allowed':
      return text.errors.notAllowed;
    case 'network':
      return text.errors.network;
    default:
      return isSafari ? text.errors.failedSafari : text.errors.failed;
  }
}
