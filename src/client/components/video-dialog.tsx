import { CirclePlay } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { t } from '../lib/i18n';
import { Button } from './ui/button';
import { Dialog, DialogClose, DialogContent } from './ui/dialog';

export interface VideoItem {
  id: string;
  title: string;
}

interface VideoDialogProps<V extends VideoItem> {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: string;
  videos: readonly V[];
  /** What plays in the player dialog: an embedded player or a placeholder. */
  renderPlayer: (video: V) => ReactNode;
  /** Wider player dialog, for an embedded player. */
  wide?: boolean;
}

/**
 * A list of videos; each opens a player dialog with the corner X and a Close button (spec:
 * Help dialog, and the programme resource videos). The list closes as the player opens;
 * focus returns to what opened the list.
 */
export function VideoDialog<V extends VideoItem>({ open, onOpenChange, title, description, videos, renderPlayer, wide }: VideoDialogProps<V>) {
  const [playing, setPlaying] = useState<V | null>(null);
  return (
    <>
      <Dialog open={open} onOpenChange={onOpenChange}>
        <DialogContent title={title} description={description}>
          {videos.length > 0 && (
            <ul className="flex flex-col gap-2">
              {videos.map((video) => (
                <li key={video.id}>
                  <Button
                    variant="secondary"
                    className="w-full justify-start text-left whitespace-normal"
                    onClick={() => {
                      onOpenChange(false);
                      setPlaying(video);
                    }}
                  >
                    <CirclePlay className="text-brand-ink" aria-hidden />
                    {video.title}
                  </Button>
                </li>
              ))}
            </ul>
          )}
        </DialogContent>
      </Dialog>
      <Dialog open={playing !== null} onOpenChange={(isOpen) => !isOpen && setPlaying(null)}>
        <DialogContent title={playing?.title ?? ''} className={wide ? 'max-w-2xl' : undefined}>
          {playing && renderPlayer(playing)}
          <DialogClose asChild>
            <Button variant="secondary">{t.common.close}</Button>
          </DialogClose>
        </DialogContent>
      </Dialog>
    </>
  );
}
