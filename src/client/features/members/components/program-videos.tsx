import { Clapperboard } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { VideoDialog } from '../../../components/video-dialog';
import { t } from '../../../lib/i18n';
import { useConfig } from '../../config/use-config';

const r = t.members.resources;

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
  const videos = helpVideoIds.slice(0, 2).map((id, i) => ({ id, title: r.videos[i] ?? r.title }));

  return (
    <>
      <Button
        variant="secondary"
        size="icon"
        className="shrink-0"
        aria-label={r.open}
        aria-haspopup="dialog"
        onClick={() => setOpen(true)}
      >
        <Clapperboard className="text-brand-strong" aria-hidden />
      </Button>
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
    </>
  );
}
