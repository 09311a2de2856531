import type { ComponentChildren } from 'preact';

/**
 * A wide table's scrolling box that the keyboard can reach: at 375 px a
 * table of many columns scrolls sideways, and a scrolling region with
 * nothing focusable inside must take focus itself (named by `label`).
 */
export function ScrollBox({ label, children }: { label: string; children: ComponentChildren }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling block must be reachable by keyboard
    <section class="insight-scroll" aria-label={label} tabIndex={0}>
      {children}
    </section>
  );
}
