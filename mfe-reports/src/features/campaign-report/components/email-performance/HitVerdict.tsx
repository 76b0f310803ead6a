import { makeStyles, Tooltip } from '@fluentui/react-components';
import type { MachineReason } from '@mailroom/api-client';
import { hitLabel, MACHINE_HIT_LABEL, machineEvidenceText } from '@mailroom/api-client/labels';

const useStyles = makeStyles({
  // The dotted underline says there is more to read, as for an abbreviation.
  machine: { textDecorationLine: 'underline', textDecorationStyle: 'dotted', cursor: 'help' },
});

export interface HitVerdictProps {
  /** Anyone opened (or clicked), and a person did. */
  any: boolean;
  human: boolean;
  /** Why only machines did: the evidence stored with their hits (empty for people). */
  evidence: readonly MachineReason[];
}

/**
 * Opened or Clicked as 'Yes', 'Yes (machine)' or 'No' (an addition to the spec). A machine's verdict
 * says why in a tooltip that the keyboard reaches too (Tab to it), and that a screen reader reads as
 * the verdict's description.
 */
export function HitVerdict({ any, human, evidence }: HitVerdictProps) {
  const styles = useStyles();
  const label = hitLabel(any, human);
  if (label !== MACHINE_HIT_LABEL || evidence.length === 0) return <>{label}</>;
  return (
    <Tooltip content={`Why a machine: ${machineEvidenceText(evidence)}.`} relationship="description">
      <span className={styles.machine} tabIndex={0}>
        {label}
      </span>
    </Tooltip>
  );
}
