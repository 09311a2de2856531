import { describe, expect, it } from 'vitest';
import { colour, looksLikeHtml, splitHtml } from './html-visible.js';

describe('splitHtml', () => {
  it('keeps visible text and lists every hidden piece with how it is hidden', () => {
    const html = `<html><head><style>.x{display:none}</style></head><body>
      <h1>Refunds</h1><p>Returns within 30 days.</p>
      <span style="display:none">one</span>
      <span style="visibility:hidden">two</span>
      <p style="font-size:0px">three</p>
      <div style="color:#FFF">four</div>
      <div style="background:#000;color:black">five</div>
      <div style="opacity:0">six</div>
      <div style="width:0;height:0;overflow:hidden">seven</div>
      <div class="x">eight</div>
      <div hidden>nine</div>
      <div aria-hidden="true">ten</div>
      <template><p>eleven</p></template>
      <noscript>twelve</noscript>
      <!-- thirteen -->
      <span style="position:absolute;left:-9999px">fourteen</span>
    </body></html>`;
    const { visible, hidden } = splitHtml(html);
    expect(visible).toBe('Refunds\nReturns within 30 days.');
    expect(hidden.map((h) => h.text)).toEqual([
      'one',
      'two',
      'three',
      'four',
      'five',
      'six',
      'seven',
      'eight',
      'nine',
      'ten',
      'eleven',
      'twelve',
      'thirteen',
      'fourteen',
    ]);
    expect(hidden.map((h) => h.how)).toContain('text colour equals background');
  });

  it('parses a fragment as well as a page', () => {
    expect(splitHtml('Hi <b>there</b><span style="display:none">x</span>').visible).toBe('Hi there');
  });

  it('reads CSS colours in one form', () => {
    expect(colour('#fff')).toBe('#ffffff');
    expect(colour('rgb(255, 255, 255)')).toBe('#ffffff');
    expect(colour('White !important')).toBe('#ffffff');
    expect(colour('rgba(0,0,0,0)')).toBe('transparent');
  });

  it('tells markup from text', () => {
    expect(looksLikeHtml('a <span style="x">b</span>')).toBe(true);
    expect(looksLikeHtml('2 < 3 and 4 > 1')).toBe(false);
  });
});
