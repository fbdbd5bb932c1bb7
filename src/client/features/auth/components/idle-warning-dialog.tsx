import { useEffect, useState } from 'react';
import { common } from '../../../lib/messages/common';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogContent } from '../../../components/ui/dialog';
import { announcedSeconds, secondsLeft } from '../idle-timer';

const m = common.idle;

interface IdleWarningDialogProps {
  /** When the idle sign-out comes (Date.now() scale). */
  deadline: number;
  onStay(): void;
  onSignOut(): void;
}

/**
 * "You'll be signed out in 60 seconds": the title counts down every second for the eye and is
 * read when the dialog takes focus (the 60); a polite live region then says it again at 30 and
 * 10 seconds only, so a screen reader is not talked over each second. Escape or a tap outside counts as "Stay signed in": the member is here.
 */
export function IdleWarningDialog({ deadline, onStay, onSignOut }: IdleWarningDialogProps) {
  const [seconds, setSeconds] = useState(() => secondsLeft(deadline, Date.now()));
  useEffect(() => {
    const tick = setInterval(() => setSeconds(secondsLeft(deadline, Date.now())), 1000);
    return () => clearInterval(tick);
  }, [deadline]);

  return (
    <Dialog open onOpenChange={(open) => !open && onStay()}>
      {/* data-idle-warning: clicks in here are for the buttons, not "activity" (auth-provider.tsx). */}
      <DialogContent title={m.title(seconds)} description={m.body} hideClose data-idle-warning="">
        <p className="sr-only" aria-live="polite" aria-atomic="true">
          {m.title(announcedSeconds(seconds))}
        </p>
        <div className="flex flex-col gap-3">
          <Button onClick={onStay}>
            {m.stay}
          </Button>
          <Button variant="secondary" onClick={onSignOut}>
            {m.signOutNow}
          </Button>
        </div>
      </DialogContent>
    </Dialog>
  );
}
