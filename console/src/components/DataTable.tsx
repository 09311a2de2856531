import type { ComponentChildren } from 'preact';

/**
 * A table in its scrolling wrapper: an optional caption for screen readers,
 * one header row of column headings, and the rows the caller passes.
 */
export function DataTable({
  columns,
  caption,
  class: className,
  children,
}: {
  columns: ComponentChildren[];
  caption?: string;
  class?: string;
  children: ComponentChildren;
}) {
  return (
    // A table wider than a phone scrolls inside this box, which must then take the keyboard's focus.
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard
    <div class="table-wrap" tabIndex={0}>
      <table class={className}>
        {caption && <caption class="sr-only">{caption}</caption>}
        <thead>
          <tr>
            {columns.map((heading, index) => (
              <th scope="col" key={index}>
                {heading}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
