import { Clapperboard } from 'lucide-react';
import { Suspense, lazy, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { t } from '../../../lib/i18n';
import { useConfig } from '../../config/use-config';

const r = t.members.resources;

// The dialog code (Radix dialog, focus trap, scroll lock) loads with the first press, not with Home.
const loadVideoDialog = () => import('../../../components/video-dialog');
const VideoDialog = lazy(() => loadVideoDialog().then((m) => ({ default: m.VideoDialog })));
const prefetchVideoDialog = () => void loadVideoDialog().catch(() => undefined);

/** The privacy-friendly embed; the CSP allows only this frame source. */
export const embedUrl = (videoId: string) => `https://www.youtube-nocookie.com/embed/${encodeURIComponent(videoId)}?rel=0`;

/**
 * The second header variant's control: the two programme resource videos from runtime
 * configuration (`HELP_VIDEO_IDS`), each opening a video dialog with an embedded player.
 * Without configured ids the dialog says there are none rather than the control vanishing.
 */
export function ProgramVideosButton() {
  const { helpVideoIds } = useConfig();
  const [open, setOpen] = useState(false);
  // Mounted from the first press on, so that it closes (and returns focus) as a dialog does.
  const [mounted, setMounted] = useState(false);
  const videos = helpVideoIds.slice(0, 2).map((id, i) => ({ id, title: r.videos[i] ?? r.title }));

  return (
    <>
      <Button
        variant="secondary"
        size="icon"
        className="shrink-0"
        aria-label={r.open}
        aria-haspopup="dialog"
        onPointerEnter={prefetchVideoDialog}
        onFocus={prefetchVideoDialog}
        onClick={() => {
          setMounted(true);
          setOpen(true);
        }}
      >
        <Clapperboard className="text-brand-ink" aria-hidden />
      </Button>
      {mounted && (
        <Suspense fallback={null}>
          <VideoDialog
            open={open}
            onOpenChange={setOpen}
            title={r.title}
            description={videos.length > 0 ? r.description : r.none}
            videos={videos}
            wide
            renderPlayer={(video) => (
              <div className="aspect-video w-full overflow-hidden rounded-xl bg-ink">
                <iframe
                  src={embedUrl(video.id)}
                  title={r.playerTitle(video.title)}
                  className="size-full"
                  allow="accelerometer; encrypted-media; gyroscope; picture-in-picture; fullscreen"
                  allowFullScreen
                  referrerPolicy="strict-origin-when-cross-origin"
                />
              </div>
            )}
          />
        </Suspense>
      )}
    </>
  );
}
