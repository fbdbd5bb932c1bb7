import { CirclePlay } from 'lucide-react';
import { VideoDialog } from '../../../components/video-dialog';
import { t } from '../../../lib/i18n';

const videos = [
  { id: 'getting-started', title: t.help.videos.gettingStarted },
  { id: 'health-activities', title: t.help.videos.healthActivities },
  { id: 'wealth-center', title: t.help.videos.wealthCenter },
] as const;

/** Help: the list of how-to videos; each opens a placeholder video dialog. */
export function HelpDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  return (
    <VideoDialog
      open={open}
      onOpenChange={onOpenChange}
      title={t.help.title}
      description={t.help.description}
      videos={videos}
      renderPlayer={() => (
        <div className="flex aspect-video w-full flex-col items-center justify-center gap-2 rounded-xl bg-ink text-surface">
          <CirclePlay className="size-12 opacity-80" aria-hidden />
          <p className="px-4 text-center text-sm">{t.help.placeholderVideo}</p>
        </div>
      )}
    />
  );
}
