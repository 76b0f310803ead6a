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
  // An hour from now, on the minute, as a first suggestion.
  const suggested = dayjs().add(1, 'hour').startOf('minute');
  const [date, setDate] = useState(suggested.format('YYYY-MM-DD'));
  const [time, setTime] = useState(suggested.format('HH:mm'));
  const [touched, setTouched] = useState(false);
  const at = scheduledInstant(date, time);
  const problem = at === null ? SCHEDULE_INVALID : at.getTime() <= Date.now() ? SCHEDULE_PAST : null;
  const zone = memberTimeZone();

  const pick = () => {
    setTouched(true);
    // Checked again at the click: the suggestion may have passed while the dialog stood open.
    const chosen = scheduledInstant(date, time);
    if (chosen && chosen.getTime() > Date.now()) onPick(chosen);
  };

  return (
    <Dialog open modalType="modal" onOpenChange={(_, data) => !data.open && onCancel()}>
      <DialogSurface aria-describedby="schedule-zone">
        <DialogBody>
          <DialogTitle>Schedule campaign</DialogTitle>
          <DialogContent>
            <div className={styles.fields}>
              <Field className={styles.field} label="Date" required>
                <Input
                  type="date"
                  value={date}
                  min={dayjs().format('YYYY-MM-DD')}
                  onChange={(_, data) => {
                    setDate(data.value);
                    setTouched(true);
                  }}
                />
              </Field>
              <Field
                className={styles.field}
                label="Time"
                required
                validationState={touched && problem ? 'error' : 'none'}
                validationMessage={touched && problem ? problem : undefined}
              >
                <Input
                  type="time"
                  value={time}
                  onChange={(_, data) => {
                    setTime(data.value);
                    setTouched(true);
                  }}
                />
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
