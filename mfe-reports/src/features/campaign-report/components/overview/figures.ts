import type { ReportOverview } from '@mailroom/api-client';
import { formatShare } from '../click-performance/shares';

/** One tile of the Overview's figures. */
export interface Figure {
  label: string;
  /** One decimal and a percent sign, e.g. '12.5%'. */
  rate: string;
  /** The count and what the rate is taken over, e.g. '120 of 990 sent'. */
  detail: string;
}

const count = (value: number) => value.toLocaleString('en-US');

/**
 * The Overview's figures (an addition to the spec), each with its rate over the mails sent: what the
 * member asks after a send. Opens and clicks stand people and machines apart; click-to-open is the
 * people's only (a machine's open says nothing about interest), over the people who opened.
 */
export function overviewFigures(figures: ReportOverview): Figure[] {
  const { sent } = figures;
  const ofSent = (label: string, value: number): Figure => ({
    label,
    rate: formatShare(value, sent),
    detail: `${count(value)} of ${count(sent)} sent`,
  });
  return [
    ofSent('Delivered', figures.delivered),
    ofSent('Bounced (hard)', figures.bouncedHard),
    ofSent('Bounced (soft)', figures.bouncedSoft),
    ofSent('Complaints', figures.complaints),
    ofSent('Unsubscribed', figures.unsubscribed),
    ofSent('Opened by people', figures.openedHuman),
    ofSent('Opened by machines', figures.openedMachine),
    ofSent('Clicked by people', figures.clickedHuman),
    ofSent('Clicked by machines', figures.clickedMachine),
    {
      label: 'Click-to-open (people)',
      rate: formatShare(figures.clickedHuman, figures.openedHuman),
      detail: `${count(figures.clickedHuman)} of ${count(figures.openedHuman)} who opened`,
    },
    ofSent('Failed', figures.failed),
    ofSent('Unknown', figures.unknown),
  ];
}
