import { Field, Input, Select, makeStyles, tokens } from '@fluentui/react-components';
import { SearchRegular } from '@fluentui/react-icons';
import type { BounceType, SendStatus } from '@mailroom/api-client';
import type { EmailPerformanceFilters } from '../../api/keys';
import { SEND_STATUSES } from './sendStatus';

/** 'human': by a person, not only machines (an addition to the spec). */
type YesNo = '' | 'true' | 'human' | 'false';

/** The filter selects' values; '' is All. */
export interface FilterSelections {
  sendStatus: SendStatus | '';
  bounceStatus: BounceType | '';
  clicked: YesNo;
  opened: YesNo;
}

export const NO_FILTER: FilterSelections = { sendStatus: '', bounceStatus: '', clicked: '', opened: '' };

const yesNo = (value: YesNo) => (value === '' || value === 'human' ? undefined : value === 'true');

/** The query the selections and the (debounced, trimmed) email search ask for; All filters are left out. */
export function filtersOf(email: string, selections: FilterSelections): EmailPerformanceFilters {
  const clicked = yesNo(selections.clicked);
  const opened = yesNo(selections.opened);
  return {
    ...(email ? { email } : {}),
    ...(selections.sendStatus ? { sendStatus: selections.sendStatus } : {}),
    ...(selections.bounceStatus ? { bounceStatus: selections.bounceStatus } : {}),
    ...(clicked === undefined ? {} : { clicked }),
    ...(opened === undefined ? {} : { opened }),
    ...(selections.clicked === 'human' ? { humanClicked: true } : {}),
    ...(selections.opened === 'human' ? { humanOpened: true } : {}),
  };
}

const useStyles = makeStyles({
  root: { display: 'flex', flexWrap: 'wrap', alignItems: 'flex-end', gap: tokens.spacingHorizontalM },
  search: { minWidth: '240px', maxWidth: '100%' },
});

export interface EmailPerformanceFilterBarProps {
  emailText: string;
  onEmailTextChange: (text: string) => void;
  selections: FilterSelections;
  onSelectionsChange: (selections: FilterSelections) => void;
}

export function EmailPerformanceFilterBar({
  emailText,
  onEmailTextChange,
  selections,
  onSelectionsChange,
}: EmailPerformanceFilterBarProps) {
  const styles = useStyles();
  const select = <K extends keyof FilterSelections>(key: K) => ({
    value: selections[key],
    onChange: (_: unknown, data: { value: string }) => onSelectionsChange({ ...selections, [key]: data.value }),
  });
  const yesNoOptions = (
    <>
      <option value="">All</option>
      <option value="true">Yes</option>
      <option value="human">Yes, by a person</option>
      <option value="false">No</option>
    </>
  );
  return (
    <div className={styles.root} role="search" aria-label="Email performance filters">
      <Field label="Search Email">
        <Input
          className={styles.search}
          type="search"
          value={emailText}
          contentBefore={<SearchRegular />}
          onChange={(_, data) => onEmailTextChange(data.value)}
        />
      </Field>
      <Field label="Send Status">
        <Select {...select('sendStatus')}>
          <option value="">All</option>
          {Object.entries(SEND_STATUSES).map(([value, { label }]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </Select>
      </Field>
      <Field label="Bounce Type">
        <Select {...select('bounceStatus')}>
          <option value="">All</option>
          <option value="HARD">Hard</option>
          <option value="SOFT">Soft</option>
        </Select>
      </Field>
      <Field label="Clicked">
        <Select {...select('clicked')}>{yesNoOptions}</Select>
      </Field>
      <Field label="Opened">
        <Select {...select('opened')}>{yesNoOptions}</Select>
      </Field>
    </div>
  );
}
