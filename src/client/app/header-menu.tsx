import { HelpCircle, Info, LogOut, Menu, Shield, Trash2, User } from 'lucide-react';
import { Suspense, lazy, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { LANGUAGES, LANGUAGE_NAMES, isLanguage } from '#shared/i18n/languages';
import { paths } from '#shared/paths';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuRadioGroup,
  DropdownMenuRadioItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '../components/ui/dropdown-menu';
import { saveLanguageOnAccount } from '../features/auth/api/save-preferences';
import { useAuth } from '../features/auth/auth-context';
import { writeKeepCardsPreference } from '../lib/keep-cards';
import { t } from '../lib/i18n';
import { language } from '../lib/language';
import { saveLanguage } from '../lib/save-language';
import { saveThemeChoice } from '../lib/save-theme';
import { type ThemeChoice, readThemeChoice } from '../lib/theme';
import { menuButtonClass } from './header-menu-button';

// The dialogs (Admin Access brings the whole two-step set-up) load when the menu is first
// shown, so they are there by the time an item is chosen.
const loadHelp = () => import('../features/help/components/help-dialog');
const loadAdminAccess = () => import('../features/admin/components/admin-access-dialog');
const HelpDialog = lazy(() => loadHelp().then((m) => ({ default: m.HelpDialog })));
const AdminAccessDialog = lazy(() => loadAdminAccess().then((m) => ({ default: m.AdminAccessDialog })));

/**
 * The signed-in member's menu with its Help and Admin Access dialogs. Loaded on its own, when
 * the member first reaches for the menu (see PageHeader), so pages do not download menus and
 * dialogs they may never show. `openOnMount`: the press that asked for it, so the menu opens
 * as that press would have opened it (from the keyboard, on its first item).
 */
export default function HeaderMenu({ openOnMount }: { openOnMount?: 'pointer' | 'keyboard' | undefined }) {
  const { user, signOut } = useAuth();
  const navigate = useNavigate();
  const [helpOpen, setHelpOpen] = useState(false);
  const [adminOpen, setAdminOpen] = useState(false);
  // A dialog stays mounted once opened, so that it closes (and returns focus) as before.
  const [mounted, setMounted] = useState({ help: false, admin: false });
  const focusFirstItem = useRef(openOnMount === 'keyboard');
  const [theme, setTheme] = useState<ThemeChoice>(readThemeChoice);
  const m = t.common.menu;

  useEffect(() => {
    void loadHelp().catch(() => undefined);
    void loadAdminAccess().catch(() => undefined);
  }, []);


  return (
    <>
      <DropdownMenu defaultOpen={openOnMount !== undefined}>
        <DropdownMenuTrigger className={menuButtonClass} aria-label={t.common.openMenu}>
          <Menu className="size-6" aria-hidden />
        </DropdownMenuTrigger>
        <DropdownMenuContent
          ref={(menu) => {
            // Opened from the keyboard: Radix focuses the first item itself when its own button
            // saw the key; this first time the key went to the stand-in button. Focus already
            // inside the menu is left where it is by Radix.
            if (!menu || !focusFirstItem.current) return;
            focusFirstItem.current = false;
            menu.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
          }}
        >
          {user && (
            <DropdownMenuLabel>
              <p className="font-semibold text-ink">
                {user.firstName} {user.lastName}
              </p>
              <p className="truncate text-sm text-muted">{user.email}</p>
            </DropdownMenuLabel>
          )}
          <DropdownMenuSeparator />
          <DropdownMenuItem onSelect={() => void navigate(paths.profile)}>
            <User aria-hidden />
            {m.profile}
          </DropdownMenuItem>
          <DropdownMenuItem
            onSelect={() => {
              setMounted((d) => ({ ...d, help: true }));
              setHelpOpen(true);
            }}
          >
            <HelpCircle aria-hidden />
            {m.help}
          </DropdownMenuItem>
          <DropdownMenuItem onSelect={() => void navigate(paths.information)}>
            <Info aria-hidden />
            {m.information}
          </DropdownMenuItem>
          <DropdownMenuItem
            onSelect={() => {
              setMounted((d) => ({ ...d, admin: true }));
              setAdminOpen(true);
            }}
          >
            <Shield aria-hidden />
            {m.adminAccess}
          </DropdownMenuItem>
          <DropdownMenuSeparator />
          <DropdownMenuLabel id="theme-label" className="text-sm font-semibold text-muted">
            {m.theme}
          </DropdownMenuLabel>
          <DropdownMenuRadioGroup
            aria-labelledby="theme-label"
            value={theme}
            onValueChange={(value) => {
              const choice = value as ThemeChoice;
              saveThemeChoice(choice);
              setTheme(choice);
            }}
          >
            <DropdownMenuRadioItem value="system">{m.themeSystem}</DropdownMenuRadioItem>
            <DropdownMenuRadioItem value="light">{m.themeLight}</DropdownMenuRadioItem>
            <DropdownMenuRadioItem value="dark">{m.themeDark}</DropdownMenuRadioItem>
          </DropdownMenuRadioGroup>
          <DropdownMenuSeparator />
          <DropdownMenuLabel id="language-label" className="text-sm font-semibold text-muted">
            {m.language}
          </DropdownMenuLabel>
          <DropdownMenuRadioGroup
            aria-labelledby="language-label"
            value={language}
            onValueChange={(value) => {
              if (isLanguage(value)) void saveLanguage(value, saveLanguageOnAccount);
            }}
          >
            {LANGUAGES.map((choice) => (
              <DropdownMenuRadioItem key={choice} value={choice} lang={choice}>
                {LANGUAGE_NAMES[choice]}
              </DropdownMenuRadioItem>
            ))}
          </DropdownMenuRadioGroup>
          <DropdownMenuSeparator />
          <DropdownMenuItem
            onSelect={() => {
              void signOut().then(() => navigate(paths.login));
            }}
          >
            <LogOut aria-hidden />
            {m.signOut}
          </DropdownMenuItem>
          <DropdownMenuItem
            onSelect={() => {
              // Cards kept "on this device" go too: the preference is turned off before sign-out reads it.
              writeKeepCardsPreference(false);
              void signOut().then(() => navigate(paths.login));
            }}
          >
            <Trash2 aria-hidden />
            {t.offline.signOutAndRemove}
          </DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
      {mounted.help && (
        <Suspense fallback={null}>
          <HelpDialog open={helpOpen} onOpenChange={setHelpOpen} />
        </Suspense>
      )}
      {mounted.admin && (
        <Suspense fallback={null}>
          <AdminAccessDialog open={adminOpen} onOpenChange={setAdminOpen} />
        </Suspense>
      )}
    </>
  );
}
