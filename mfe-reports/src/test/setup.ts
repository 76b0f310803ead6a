import { configure } from '@testing-library/react';

// The report's route and its dialogs are lazy and Fluent's trees are large: on a shared two-core machine, with
// the other suites running, the first render of a test or a dialog's first load can take longer than Testing
// Library's default second (5 s once failed to show the Resend dialog in a full run).
configure({ asyncUtilTimeout: 10_000 });

// jsdom lays nothing out: SVG text has no length and no box. Fluent's charts measure their axis labels
// to wrap them; a zero size lets the timeline chart render in component tests (its figures are checked
// through its table; the drawing itself in the e2e walk).
const svgText = globalThis.SVGElement?.prototype as
  (SVGElement & { getComputedTextLength?: () => number; getBBox?: () => DOMRect }) | undefined;
if (svgText) {
  svgText.getComputedTextLength ??= () => 0;
  svgText.getBBox ??= () => ({ x: 0, y: 0, width: 0, height: 0 }) as DOMRect;
}
