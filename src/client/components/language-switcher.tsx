import { LANGUAGES, LANGUAGE_NAMES } from '#shared/i18n/languages';
import { language } from '../lib/language';
import { common } from '../lib/messages/common';
import { Button } from './ui/button';

/**
 * "English" / "Español" on the signed-out screens: each language named in itself (and marked
 * with its `lang`, so a screen reader says it in that language). The choice stays on the device
 * and goes to the account at the next sign-in.
 */
export function LanguageSwitcher() {
  return (
    <div role="group" aria-label={common.menu.language} className="flex flex-wrap justify-center gap-x-2">
      {LANGUAGES.map((choice) => (
        <Button
          key={choice}
          variant="link"
          size="sm"
          lang={choice}
          aria-pressed={choice === language}
          className={choice === language ? 'text-ink' : 'underline'}
          onClick={() => void import('../lib/save-language').then((m) => m.saveLanguage(choice))}
        >
          {LANGUAGE_NAMES[choice]}
        </Button>
      ))}
    </div>
  );
}
