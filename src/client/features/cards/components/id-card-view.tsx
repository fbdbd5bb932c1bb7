import { RotateCcw } from 'lucide-react';
import { useMemo, useState } from 'react';
import { cardUi } from '../../../lib/messages/card-ui';
import type { EmployerCardDetails, IdCard } from '#shared/schemas/cards';
import { Button } from '../../../components/ui/button';
import { cn } from '../../../lib/cn';
import { type CardField, type CardSides, cardSides } from '../card-fields';
import { CardActions } from './card-actions';
import { CardQr } from './card-qr';

const c = cardUi.card;

export type Brand = { name: string; logoUrl: string; color: string };

function Line({ item, light }: { item: CardField; light?: boolean }) {
  return (
    <div className="flex min-w-0 flex-col">
      <dt className={cn('text-[0.6875rem] leading-tight font-semibold tracking-wide uppercase', light ? 'text-white/85' : 'text-muted')}>{item.label}</dt>
      <dd className="text-sm leading-snug font-semibold break-words">
        {item.href ? (
          <a href={item.href} className="underline decoration-2 underline-offset-2">
            {item.value}
          </a>
        ) : (
          item.value
        )}
      </dd>
    </div>
  );
}

function Front({ sides, card, brand }: { sides: CardSides; card: IdCard; brand: Brand }) {
  return (
    <div className="relative flex h-full flex-col gap-3 overflow-hidden rounded-2xl bg-brand-strong p-4 text-white shadow-lg">
      <div aria-hidden className="pointer-events-none absolute -top-16 -right-16 size-56 rounded-full bg-white/10" />
      <div className="relative flex items-start gap-3 max-[16rem]:flex-col">
        <div className="flex min-w-0 flex-1 flex-col gap-2 self-stretch">
          <div className="flex items-center gap-2">
            <img src={brand.logoUrl} alt="" className="size-7 rounded-md bg-white p-0.5" width={28} height={28} />
            <span className="truncate text-base font-bold">{brand.name}</span>
          </div>
          <p className="text-xl leading-tight font-bold break-words">{sides.name}</p>
        </div>
        <div className="w-28 shrink-0">
          <CardQr token={card.token} name={card.name} />
        </div>
      </div>
      <dl className="relative grid grid-cols-2 gap-x-3 gap-y-2 max-[16rem]:grid-cols-1">
        {sides.front.map((item) => (
          <Line key={item.key} item={item} light />
        ))}
      </dl>
      {sides.rx.length > 0 && (
        <dl className="relative grid grid-cols-3 gap-x-3 border-t border-white/25 pt-2 max-[16rem]:grid-cols-1">
          {sides.rx.map((item) => (
            <Line key={item.key} item={item} light />
          ))}
        </dl>
      )}
    </div>
  );
}

function Back({ sides, brand }: { sides: CardSides; brand: Brand }) {
  return (
    <div className="flex h-full flex-col overflow-hidden rounded-2xl border border-line bg-surface text-ink shadow-lg">
      <p className="truncate bg-brand-strong px-4 py-2 text-sm font-bold text-white">
        {brand.name} · {sides.name}
      </p>
      <div className="flex flex-1 flex-col gap-3 p-4">
        {sides.back.length > 0 && (
          <dl className="grid grid-cols-2 gap-x-3 gap-y-2 max-[16rem]:grid-cols-1">
            {sides.back.map((item) => (
              <Line key={item.key} item={item} />
            ))}
          </dl>
        )}
        {sides.backNote && <p className="text-sm break-words whitespace-pre-line">{sides.backNote}</p>}
        <p className="mt-auto text-xs text-muted">{sides.hipaa}</p>
      </div>
    </div>
  );
}

/**
 * One ID card with its two sides. "Show back" turns it (a flip, or at once under reduced
 * motion) and says so to screen readers; the side turned away is inert.
 */
export function IdCardView({ card, details, brand, label }: { card: IdCard; details: EmployerCardDetails; brand: Brand; label: string }) {
  const sides = useMemo(() => cardSides(card, details), [card, details]);
  const [side, setSide] = useState<'front' | 'back'>('front');
  const [announcement, setAnnouncement] = useState('');
  const back = side === 'back';
  const turn = () => {
    setSide(back ? 'front' : 'back');
    setAnnouncement(back ? c.showingFront(card.name) : c.showingBack(card.name));
  };
  const face = 'col-start-1 row-start-1 [backface-visibility:hidden]';
  return (
    <section aria-label={label} data-card-id={card.id} data-side={side} className="flex flex-col gap-3">
      <div className="[perspective:1200px]">
        <div
          className={cn(
            'grid aspect-[1.588] w-full grid-cols-[minmax(0,1fr)] [transform-style:preserve-3d] motion-safe:transition-transform motion-safe:duration-500',
            back && '[transform:rotateY(180deg)]',
          )}
        >
          <div className={face} inert={back} aria-hidden={back || undefined} data-face="front">
            <Front sides={sides} card={card} brand={brand} />
          </div>
          <div className={cn(face, '[transform:rotateY(180deg)]')} inert={!back} aria-hidden={!back || undefined} data-face="back">
            <Back sides={sides} brand={brand} />
          </div>
        </div>
      </div>
      <div className="flex flex-wrap gap-2">
        <Button variant="secondary" size="sm" onClick={turn} className="flex-1">
          <RotateCcw aria-hidden />
          {back ? c.showFront : c.showBack}
        </Button>
        <CardActions sides={sides} token={card.token} brand={brand} />
      </div>
      <p aria-live="polite" className="sr-only">
        {announcement}
      </p>
    </section>
  );
}
