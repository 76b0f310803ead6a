import {
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Field,
  Input,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { memberTimeZone } from '@mailroom/ui';
import dayjs from 'dayjs';
import { useState } from 'react';
import { SCHEDULE_INVALID, SCHEDULE_PAST, scheduledInstant } from '../utils/schedule';

const useStyles = makeStyles({
  fields: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalM, rowGap: tokens.spacingVerticalM },
  field: { minWidth: '150px', flexGrow: 1 },
  zone: { marginTop: tokens.spacingVerticalM, color: tokens.colorNeutralForeground2 },
});

/**
 * Picks the date and time a campaign is sent at, in the member's time zone (named below the fields).
 * A time that is not in the future is refused here; the server refuses it again.
 */
export function ScheduleDialog({ onPick, onCancel }: { onPick: (at: Date) => void; onCancel: () => void }) {
  const styles = useStyles();
  // An hour from now, on the minute, as a first suggestion (read once, when the dialog opens).
  const [opened] = useState(() => dayjs());
  const suggested = opened.add(1, 'hour').startOf('minute');
  const [date, setDate] = useState(suggested.format('YYYY-MM-DD'));
  const [time, setTime] = useState(suggested.format('HH:mm'));
  /** Why the chosen time cannot be taken, judged when it changes (and again at the click). */
  const [problem, setProblem] = useState<string | null>(null);
  const zone = memberTimeZone();

  const change = (next: { date?: string; time?: string }) => {
    const chosen = { date, time, ...next };
    setDate(chosen.date);
    setTime(chosen.time);
    setProblem(problemOf(chosen.date, chosen.time));
  };

  const pick = () => {
    // Checked again at the click: the suggestion may have passed while the dialog stood open.
    const found = problemOf(date, time);
    setProblem(found);
    const chosen = scheduledInstant(date, time);
    if (!found && chosen) onPick(chosen);
  };

  return (
    <Dialog open modalType="modal" onOpenChange={(_, data) => !data.open && onCancel()}>
      <DialogSurface aria-describedby="schedule-zone">
        <DialogBody>
          <DialogTitle>Schedule campaign</DialogTitle>
          <DialogContent>
            <div className={styles.fields}>
              <Field className={styles.field} label="Date" required>
                <Input type="date" value={date} min={opened.format('YYYY-MM-DD')} onChange={(_, data) => change({ date: data.value })} />
              </Field>
              <Field
                className={styles.field}
                label="Time"
                required
                validationState={problem ? 'error' : 'none'}
                validationMessage={problem ?? undefined}
              >
                <Input type="time" value={time} onChange={(_, data) => change({ time: data.value })} />
              </Field>
            </div>
            <p id="schedule-zone" className={styles.zone}>
              Time zone: {zone}
            </p>
          </DialogContent>
          <DialogActions>
            <Button appearance="secondary" onClick={onCancel}>
              Cancel
            </Button>
            <Button appearance="primary" disabled={problem !== null} onClick={pick}>
              Continue
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}

function problemOf(date: string, time: string): string | null {
  const at = scheduledInstant(date, time);
  if (at === null) return SCHEDULE_INVALID;
  return at.getTime() <= Date.now() ? SCHEDULE_PAST : null;
}
