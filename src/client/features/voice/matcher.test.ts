import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { voice as text } from '../../lib/messages/voice';
import { paths } from '#shared/paths';
import { messages as es } from '#shared/messages/es/index';
import { healthShortcuts, shortcutsIn, wealthShortcuts, type ServiceShortcut } from '#shared/shortcuts';
import {
  CONFIDENCE_THRESHOLD,
  SAFARI_CONFIDENCE_THRESHOLD,
  confidencePercent,
  findShortcut,
  interpretResult,
  isConfident,
  normalise,
  recognitionErrorMessage,
} from './matcher';

const s = (name: string, keywords: string[] = [], path = `/${name.toLowerCase().replace(/\s+/g, '-')}`): ServiceShortcut => ({
  id: name,
  name,
  path,
  keywords,
});

const nameOf = (transcript: string, health: readonly ServiceShortcut[], wealth: readonly ServiceShortcut[] = []) =>
  findShortcut(transcript, health, wealth)?.shortcut.name ?? null;

describe('normalise', () => {
  it('trims and lower-cases', () => {
    expect(normalise('  Virtual THERAPY \n')).toBe('virtual therapy');
  });
});

describe('findShortcut: each rule on its own', () => {
  it('rule 1: the exact name, case-insensitive and trimmed', () => {
    const list = [s('Prescriptions')];
    expect(findShortcut('prescriptions', list, [])).toMatchObject({ rule: 'exact', shortcut: { name: 'Prescriptions' } });
    expect(findShortcut('  PRESCRIPTIONS  ', list, [])?.rule).toBe('exact');
  });

  it('rule 2a: the name contains the transcript', () => {
    expect(findShortcut('therap', [s('Virtual Therapy')], [])?.rule).toBe('contains');
  });

  it('rule 2b: the transcript contains the name', () => {
    expect(findShortcut('take me to soar please', [s('SOAR')], [])?.rule).toBe('contains');
  });

  it('rule 3: a keyword contained in the transcript', () => {
    expect(findShortcut('i need a refill now', [s('Prescriptions', ['refill'])], [])?.rule).toBe('keyword');
  });

  it('rule 3: the transcript contained in a keyword', () => {
    expect(findShortcut('blood', [s('Quest Select Labs', ['blood test'])], [])?.rule).toBe('keyword');
  });

  it('keywords are compared case-insensitively', () => {
    expect(findShortcut('my PERA account', [], [s('Financial Wellness Center', ['Pera'])])?.rule).toBe('keyword');
  });

  it('an empty keyword never matches', () => {
    expect(findShortcut('anything', [s('Zeta', [''])], [])).toBeNull();
  });

  it('rule 4: a name word longer than 2 letters contained in the transcript', () => {
    expect(findShortcut('show me the navigator', [s('Care Navigator')], [])?.rule).toBe('name-word');
  });

  it('rule 4: a name word of exactly 3 letters counts', () => {
    expect(findShortcut('the box please', [s('Big Box Zone')], [])?.rule).toBe('name-word');
  });

  it('rule 4: name words of 2 letters or fewer do not count', () => {
    // "of" (2 letters) and "a" (1 letter) appear in the transcript but must not match.
    expect(findShortcut('cup of a tea', [s('Plan of A Zzz')], [])).toBeNull();
  });

  it('rule 4: words are split on any whitespace', () => {
    expect(findShortcut('zone', [s('Big\tBox   Zone')], [])).not.toBeNull();
  });

  it('matching is on substrings, as the spec words it', () => {
    expect(findShortcut('scandal', [s('Vital Scan')], [])?.rule).toBe('name-word');
  });

  it('nothing matches: null', () => {
    expect(findShortcut('weather forecast', [s('Prescriptions', ['refill'])], [s('Budget', ['money'])])).toBeNull();
  });

  it('an empty or blank transcript matches nothing (every name would "contain" it)', () => {
    expect(findShortcut('', [s('Prescriptions')], [])).toBeNull();
    expect(findShortcut('   ', [s('Prescriptions')], [])).toBeNull();
  });
});

describe('findShortcut: which match wins', () => {
  it('the health list is tried before the wealth list', () => {
    expect(nameOf('money', [s('Health Money', ['money'])], [s('Wealth Money', ['money'])])).toBe('Health Money');
  });

  it('a wealth service matches when no health service does', () => {
    expect(nameOf('budget', [s('Prescriptions')], [s('Guidance', ['budget'])])).toBe('Guidance');
  });

  it('within a rule, the first service in the list wins', () => {
    expect(nameOf('care', [s('First Care'), s('Second Care')])).toBe('First Care');
  });

  it('an exact name beats an earlier service that only shares a word', () => {
    expect(nameOf('virtual therapy', [s('Virtual Urgent Care'), s('Virtual Therapy')])).toBe('Virtual Therapy');
  });

  it('containment beats an earlier keyword or name word', () => {
    expect(nameOf('go to zone ab now', [s('Zone Lab', ['zone ab']), s('Zone Ab')])).toBe('Zone Ab');
  });

  it('a keyword beats an earlier service that only shares a name word', () => {
    expect(nameOf('care plan', [s('Virtual Urgent Care'), s('Plan of Care', ['care plan'])])).toBe('Plan of Care');
  });

  it('an exact name in the wealth list beats a name word in the health list', () => {
    expect(nameOf('financial guidance system', [s('Financial Aid Desk')], [s('Financial Guidance System')])).toBe(
      'Financial Guidance System',
    );
  });
});

describe('findShortcut with the real shortcut lists', () => {
  const all = [...healthShortcuts, ...wealthShortcuts];

  it.each([
    ['prescriptions', paths.prescriptions],
    ['virtual therapy', paths.virtualTherapy],
    ['SOAR', paths.soar],
    ['Virtual Care', paths.virtualUrgentCare],
    ['vital scan', paths.vitalScan],
    ['plan of care', paths.planOfCare],
    ['care navigator', paths.careNavigator],
    ['I need a doctor', paths.virtualPrimaryCare],
    ['labs', paths.questSelectLabs],
    ['retirement', paths.financialWellnessCenter],
    ['financial guidance', paths.financialGuidanceSystem],
  ])('"%s" goes to %s', (heard, path) => {
    expect(findShortcut(heard, healthShortcuts, wealthShortcuts)?.shortcut.path).toBe(path);
  });

  it('the voice list sends Vital Scan to its in-app route, not the external site', () => {
    expect(findShortcut('vital scan', healthShortcuts, wealthShortcuts)?.shortcut.path).toBe(paths.vitalScan);
  });

  it.each(all.map((sc) => [sc.name, sc.path] as const))('the name "%s" reaches its own service', (name, path) => {
    expect(findShortcut(name, healthShortcuts, wealthShortcuts)).toMatchObject({ rule: 'exact', shortcut: { path } });
  });

  it.each(all.flatMap((sc) => sc.keywords.map((k) => [k, sc.name] as const)))('the keyword "%s" reaches %s', (keyword, name) => {
    expect(findShortcut(keyword, healthShortcuts, wealthShortcuts)?.shortcut.name).toBe(name);
  });

  it('property: any casing and padding of a name reaches that service', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...all),
        fc.array(fc.boolean(), { minLength: 40, maxLength: 40 }),
        fc.constantFrom('', ' ', '  ', '\t'),
        fc.constantFrom('', ' ', '\n'),
        (sc, upper, before, after) => {
          const cased = [...sc.name].map((ch, i) => (upper[i % upper.length] ? ch.toUpperCase() : ch.toLowerCase())).join('');
          expect(findShortcut(`${before}${cased}${after}`, healthShortcuts, wealthShortcuts)?.shortcut.path).toBe(sc.path);
        },
      ),
    );
  });

  it('property: the result does not depend on case or surrounding spaces', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 30 }), (heard) => {
        const a = findShortcut(heard, healthShortcuts, wealthShortcuts);
        const b = findShortcut(`  ${heard.toUpperCase()} `, healthShortcuts, wealthShortcuts);
        const c = findShortcut(heard.toLowerCase(), healthShortcuts, wealthShortcuts);
        expect(b?.shortcut.path).toBe(c?.shortcut.path);
        if (heard === heard.toLowerCase()) expect(a?.shortcut.path).toBe(c?.shortcut.path);
      }),
    );
  });

  it('property: a match always satisfies the rule it reports', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 25 }), (heard) => {
        const match = findShortcut(heard, healthShortcuts, wealthShortcuts);
        if (!match) return;
        const h = normalise(heard);
        const name = normalise(match.shortcut.name);
        const ok = {
          exact: h === name,
          contains: name.includes(h) || h.includes(name),
          keyword: match.shortcut.keywords.some((k) => h.includes(k.toLowerCase()) || k.toLowerCase().includes(h)),
          'name-word': name.split(/\s+/).some((w) => w.length > 2 && h.includes(w)),
        }[match.rule];
        expect(ok).toBe(true);
      }),
    );
  });
});

describe('isConfident: strictly above the threshold', () => {
  it('uses 0.7, and 0.6 in Safari', () => {
    expect(CONFIDENCE_THRESHOLD).toBe(0.7);
    expect(SAFARI_CONFIDENCE_THRESHOLD).toBe(0.6);
  });

  it.each([
    [0.69, false],
    [0.7, false],
    [0.7000001, true],
    [0.71, true],
    [1, true],
    [0, false],
  ])('elsewhere: %s -> %s', (confidence, accepted) => {
    expect(isConfident(confidence, false)).toBe(accepted);
  });

  it.each([
    [0.59, false],
    [0.6, false],
    [0.6000001, true],
    [0.61, true],
    [0.65, true],
    [0.7, true],
  ])('Safari: %s -> %s', (confidence, accepted) => {
    expect(isConfident(confidence, true)).toBe(accepted);
  });

  it('a missing or invalid confidence is never accepted', () => {
    expect(isConfident(Number.NaN, false)).toBe(false);
    expect(isConfident(Number.NaN, true)).toBe(false);
  });
});

describe('confidencePercent', () => {
  it.each([
    [0.654, 65],
    [0.655, 66],
    [0.7, 70],
    [0, 0],
    [1, 100],
    [1.5, 100],
    [-1, 0],
    [Number.NaN, 0],
  ])('%s -> %s percent', (confidence, percent) => {
    expect(confidencePercent(confidence)).toBe(percent);
  });
});

describe('interpretResult: the outcome and its message', () => {
  const options = { isSafari: false, healthList: healthShortcuts, wealthList: wealthShortcuts };

  it('a confident match: navigate, with the service named', () => {
    const outcome = interpretResult({ transcript: ' Prescriptions ', confidence: 0.9 }, options);
    expect(outcome).toMatchObject({ kind: 'matched', transcript: 'Prescriptions', shortcut: { path: paths.prescriptions } });
    expect(outcome.message).toBe('Opening Prescriptions...');
  });

  it('an empty transcript', () => {
    expect(interpretResult({ transcript: '', confidence: 0.95 }, options)).toEqual({
      kind: 'empty',
      message: 'No speech detected. Please speak clearly.',
    });
  });

  it('a blank transcript is empty, even with low confidence', () => {
    expect(interpretResult({ transcript: '   ', confidence: 0.1 }, options).kind).toBe('empty');
  });

  it('low confidence names the percentage', () => {
    const outcome = interpretResult({ transcript: 'prescriptions', confidence: 0.654 }, options);
    expect(outcome).toMatchObject({ kind: 'low_confidence', percent: 65 });
    expect(outcome.message).toBe('Low confidence (65%). Please speak clearly and try again.');
  });

  it('exactly 0.7 is low confidence (70%)', () => {
    expect(interpretResult({ transcript: 'prescriptions', confidence: 0.7 }, options).message).toBe(
      'Low confidence (70%). Please speak clearly and try again.',
    );
  });

  it('0.65 is accepted in Safari and refused elsewhere', () => {
    expect(interpretResult({ transcript: 'soar', confidence: 0.65 }, { ...options, isSafari: true }).kind).toBe('matched');
    expect(interpretResult({ transcript: 'soar', confidence: 0.65 }, options).kind).toBe('low_confidence');
  });

  it('no match quotes what was heard', () => {
    const outcome = interpretResult({ transcript: 'weather today', confidence: 0.9 }, options);
    expect(outcome).toMatchObject({ kind: 'no_match', transcript: 'weather today' });
    expect(outcome.message).toBe('"weather today" - No matching service found. Try: Virtual Care, Prescriptions, SOAR, etc.');
  });

  it('the lists are parameters', () => {
    const outcome = interpretResult(
      { transcript: 'alpha', confidence: 0.9 },
      { isSafari: false, healthList: [], wealthList: [s('Alpha', [], '/alpha')] },
    );
    expect(outcome).toMatchObject({ kind: 'matched', shortcut: { path: '/alpha' } });
  });
});

describe('recognitionErrorMessage (spec section 8)', () => {
  it.each([
    ['no-speech', 'No speech detected. Try speaking louder or closer to the microphone.'],
    ['audio-capture', 'Microphone access failed. Please check your microphone permissions.'],
    ['not-allowed', 'Microphone permission denied. Please enable microphone access and try again.'],
    ['network', 'Network error occurred. Please check your internet connection.'],
    ['service-not-allowed', 'Voice recognition failed. Please try again.'],
    ['language-not-supported', 'Voice recognition failed. Please try again.'],
    ['bad-grammar', 'Voice recognition failed. Please try again.'],
    ['something-new', 'Voice recognition failed. Please try again.'],
  ])('%s', (code, message) => {
    expect(recognitionErrorMessage(code, false)).toBe(message);
  });

  it('aborted shows nothing', () => {
    expect(recognitionErrorMessage('aborted', false)).toBeNull();
    expect(recognitionErrorMessage('aborted', true)).toBeNull();
  });

  it('Safari gets its own text for an unknown failure, the same text for known codes', () => {
    expect(recognitionErrorMessage('service-not-allowed', true)).toBe('Voice recognition may work better in Chrome browser.');
    expect(recognitionErrorMessage('network', true)).toBe(text.errors.network);
    expect(recognitionErrorMessage('no-speech', true)).toBe(text.errors.noSpeech);
  });
});

describe('findShortcut in Spanish (the services named and heard as a Spanish page does)', () => {
  const health = shortcutsIn('es', healthShortcuts, es.members.shortcutNames);
  const wealth = shortcutsIn('es', wealthShortcuts, es.members.shortcutNames);
  it.each([
    ['Recetas', 'Prescriptions'],
    ['terapia virtual', 'Virtual Therapy'],
    ['atención primaria virtual', 'Virtual Primary Care'],
    ['me siento enfermo', 'Virtual Urgent Care'],
    ['necesito un análisis de sangre', 'Quest Select Labs'],
    ['una clinica cerca', 'In Person Care'],
    ['quiero hablar de salud mental', 'Virtual Therapy'],
    ['mi plan de tratamiento', 'Plan of Care'],
    ['signos vitales', 'Vital Scan'],
    ['SOAR', 'SOAR'],
    ['mi jubilación', 'Financial Wellness Center'],
    ['ayuda con mi presupuesto', 'Financial Guidance System'],
    ['guía de atención', 'Care Navigator'],
  ])('"%s" reaches %s', (transcript, id) => {
    const match = findShortcut(transcript, health, wealth);
    expect(match?.shortcut.id).toBe(id);
    expect(match?.shortcut.name).toBe(es.members.shortcutNames[id as keyof typeof es.members.shortcutNames]);
  });

  it('hears nothing it should not', () => {
    expect(findShortcut('el clima de hoy', health, wealth)).toBeNull();
  });

  it('an English page keeps the spec names and English words only', () => {
    const english = shortcutsIn('en', healthShortcuts, {});
    expect(english).toEqual(healthShortcuts);
    expect(findShortcut('recetas', english, [])).toBeNull();
  });
});
