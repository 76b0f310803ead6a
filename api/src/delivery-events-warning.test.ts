import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';
import type { Logger } from './logger.js';
import { warnWithoutDeliveryEvents } from './lifecycle.js';

/** The warnings a process logs at start, as (fields, message). */
function warningsOf(env: Record<string, string>): [unknown, string][] {
  const warnings: [unknown, string][] = [];
  const logger = { warn: (fields: unknown, message: string) => void warnings.push([fields, message]) } as unknown as Logger;
  warnWithoutDeliveryEvents(loadConfig(env), logger);
  return warnings;
}

describe('the warning at start when delivery events are off', () => {
  const topic = 'arn:aws:sns:eu-west-1:123456789012:mailroom-ses-events';

  it('names what is missing: the configuration set, the SNS topics, or both', () => {
    expect(warningsOf({})).toEqual([
      [
        { missing: ['SES_CONFIGURATION_SET', 'SNS_TOPIC_ARNS'] },
        expect.stringMatching(/^delivery events are not configured .*'Sent \(waiting Ack\)'$/),
      ],
    ]);
    expect(warningsOf({ SES_CONFIGURATION_SET: 'mailroom' })[0]![0]).toEqual({ missing: ['SNS_TOPIC_ARNS'] });
    expect(warningsOf({ SNS_TOPIC_ARNS: topic })[0]![0]).toEqual({ missing: ['SES_CONFIGURATION_SET'] });
  });

  it('says nothing when both are set', () => {
    expect(warningsOf({ SES_CONFIGURATION_SET: 'mailroom', SNS_TOPIC_ARNS: topic })).toEqual([]);
  });
});
