import { useEffect, useRef, useState } from 'react';
import { copyText } from './copyText';
import { LINK_COPIED_MS } from './programme';

type Feedback = 'idle' | 'copied' | 'failed';

/** Copies the link; "Link copied" shows for 2 seconds (a second click starts the 2 seconds again). */
export function CopyLinkButton({ link }: { link: string }) {
  const [feedback, setFeedback] = useState<Feedback>('idle');
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  // Never rejects (copyText answers false when it cannot copy): the button calls it with `void`.
  const copy = async () => {
    const copied = await copyText(link);
    setFeedback(copied ? 'copied' : 'failed');
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setFeedback('idle'), LINK_COPIED_MS);
  };

  return (
    <div className="copy-link">
      <button type="button" className="btn btn-primary" onClick={() => void copy()}>
        Copy Link
      </button>
      <span className="copy-link-feedback" role="status" aria-live="polite">
        {feedback === 'copied' && 'Link copied'}
        {feedback === 'failed' && 'Could not copy; select the link and copy it'}
      </span>
    </div>
  );
}
