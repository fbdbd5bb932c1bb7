import { HelpCircle, Info, LogOut, Menu, Shield, User } from 'lucide-react';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { paths } from '#shared/paths';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '../components/ui/dropdown-menu';
import { AdminAccessDialog } from '../features/admin/components/admin-access-dialog';
import { useAuth } from '../features/auth/auth-context';
import { HelpDialog } from '../features/help/components/help-dialog';
import { t } from '../lib/i18n';
import { menuButtonClass } from './header-menu-button';

/**
 * The signed-in member's menu with its Help and Admin Access dialogs. Loaded on its own
 * (see PageHeader) so the sign-in screen does not download menus and dialogs it never shows.
 */
export default function HeaderMenu() {
  const { user, signOut } = useAuth();
  const navigate = useNavigate();
  const [helpOpen, setHelpOpen] = useState(false);
  const [adminOpen, setAdminOpen] = useState(false);
  const m = t.common.menu;

  return (
    <>
      <DropdownMenu>
        <DropdownMenuTrigger className={menuButtonClass} aria-label={t.common.openMenu}>
          <Menu className="size-6" aria-hidden />
        </DropdownMenuTrigger>
        <DropdownMenuContent>
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
          <DropdownMenuItem onSelect={() => setHelpOpen(true)}>
            <HelpCircle aria-hidden />
            {m.help}
          </DropdownMenuItem>
          <DropdownMenuItem onSelect={() => void navigate(paths.information)}>
            <Info aria-hidden />
            {m.information}
          </DropdownMenuItem>
          <DropdownMenuItem onSelect={() => setAdminOpen(true)}>
            <Shield aria-hidden />
            {m.adminAccess}
          </DropdownMenuItem>
          <DropdownMenuSeparator />
          <DropdownMenuItem
            onSelect={() => {
              void signOut().then(() => navigate(paths.login));
            }}
          >
            <LogOut aria-hidden />
            {m.signOut}
          </DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
      <HelpDialog open={helpOpen} onOpenChange={setHelpOpen} />
      <AdminAccessDialog open={adminOpen} onOpenChange={setAdminOpen} />
    </>
  );
}
