import {
  Button,
  Field,
  Input,
  MessageBar,
  MessageBarBody,
  MessageBarTitle,
  Spinner,
  Text,
  Title1,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { EyeRegular, SaveRegular } from '@fluentui/react-icons';
import { ApiError, errorMessage, type AudienceField, type Segment } from '@mailroom/api-client';
import { EMPTY_SEGMENT_RULE, ruleToWords, type SegmentRule } from '@mailroom/api-client/segments';
import { useRemote } from '@mailroom/mf-contract/react';
import { ErrorPanel, RouterLink, parseRouteId, useDebouncedValue, RoleGate } from '@mailroom/ui';
import { useMemo, useState } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import type { RuleGroupType } from 'react-querybuilder';
import { AudienceNotFound } from '../../../components/AudienceNotFound';
import {
  useSaveSegment,
  useSegment,
  useSegmentCount,
  useSegmentFields,
  useSegmentSample,
  useSegmentsAudience,
  useSentCampaigns,
} from '../api/segments';
import { SegmentBuilder } from '../components/SegmentBuilder';
import { SegmentCountStatus } from '../components/SegmentCountStatus';
import { SegmentPreview } from '../components/SegmentPreview';
import { conditionName, fieldsByName, segmentFields, toBuilderQuery, toSegmentRule, type SentCampaign } from '../components/segment-fields';

/** The count follows the rule within this long after the member's last change (issue 26: within 1 s). */
export const COUNT_DEBOUNCE_MS = 300;

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalL },
  name: { maxWidth: '32rem' },
  actions: { display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: tokens.spacingHorizontalS },
  words: { color: tokens.colorNeutralForeground2 },
});

/** /audiences/{id}/segments/new and /audiences/{id}/segments/{segmentId}: a segment's name and rule, counted as it is edited. */
export function SegmentEditorRoute() {
  const params = useParams();
  const audienceId = parseRouteId(params.id);
  const segmentId = params.segmentId === undefined ? null : parseRouteId(params.segmentId);
  const audience = useSegmentsAudience(audienceId ?? 0);
  const fields = useSegmentFields(audienceId ?? 0);
  const campaigns = useSentCampaigns(audienceId ?? 0);
  const segment = useSegment(segmentId);
  const editing = params.segmentId !== undefined;

  if (audienceId !== null && audience.isPending) return <Spinner label="Loading audience..." />;
  if (!audience.data)
    return <AudienceNotFound error={audienceId === null ? null : audience.error} onRetry={() => void audience.refetch()} />;
  if (editing && segmentId !== null && segment.isPending) return <Spinner label="Loading segment..." />;
  if (editing && !segment.data)
    return (
      <ErrorPanel
        title="Segment not found"
        message={segmentId === null ? 'There is no such segment.' : errorMessage(segment.error, 'Failed to load the segment')}
        {...(segmentId === null ? {} : { onRetry: () => void segment.refetch() })}
      />
    );
  if (fields.isPending || campaigns.isPending) return <Spinner label="Loading fields..." />;
  if (fields.isError)
    return <ErrorPanel message={errorMessage(fields.error, 'Failed to load the fields')} onRetry={() => void fields.refetch()} />;
  return (
    <SegmentEditor
      key={segment.data?.id ?? 'new'}
      audienceId={audience.data.id}
      audienceName={audience.data.name}
      fields={fields.data}
      // A campaign list that failed leaves the campaign conditions without choices; the rest works.
      campaigns={campaigns.data ?? []}
      segment={segment.data}
    />
  );
}

interface SegmentEditorProps {
  audienceId: number;
  audienceName: string;
  fields: AudienceField[];
  campaigns: SentCampaign[];
  segment: Segment | undefined;
}

function SegmentEditor({ audienceId, audienceName, fields, campaigns, segment }: SegmentEditorProps) {
  const styles = useStyles();
  const { basePath, notify } = useRemote();
  const navigate = useNavigate();
  const builderFields = useMemo(() => segmentFields(fields), [fields]);
  const byName = useMemo(() => fieldsByName(builderFields), [builderFields]);
  const [name, setName] = useState(segment?.name ?? '');
  const [query, setQuery] = useState<RuleGroupType>(() => toBuilderQuery(segment?.rule ?? EMPTY_SEGMENT_RULE));
  const [nameError, setNameError] = useState<string>();
  const [saveError, setSaveError] = useState<ApiError | string>();
  const [previewRule, setPreviewRule] = useState<SegmentRule | null>(null);
  const save = useSaveSegment(audienceId);

  const { rule, unfinished } = useMemo(() => toSegmentRule(query, byName), [query, byName]);
  // The rule as sent: without the builder's ids, so an edit that changes nothing counts nothing again.
  const countable = useMemo(() => (unfinished.length > 0 ? null : JSON.stringify(withoutIds(rule))), [rule, unfinished]);
  const debounced = useDebouncedValue(countable, COUNT_DEBOUNCE_MS);
  const count = useSegmentCount(audienceId, debounced === null ? null : (JSON.parse(debounced) as SegmentRule));
  const sample = useSegmentSample(audienceId, previewRule);
  const campaignNames = useMemo(() => new Map(campaigns.map((c) => [c.id, c.name])), [campaigns]);
  const fieldLabels = useMemo(() => new Map(fields.map((f) => [f.key, f.label])), [fields]);
  // A 400 is about the rule (a field, operator or value the API refused): shown next to the builder.
  const refusal = [saveError, count.error, sample.error].find((e): e is ApiError => e instanceof ApiError && e.status === 400);
  const ruleError = refusal ?? saveError;

  const onSave = () => {
    setNameError(undefined);
    setSaveError(undefined);
    if (name.trim() === '') return setNameError('Give the segment a name.');
    if (unfinished.length > 0) return setSaveError(`Finish ${unfinished.map(conditionName).join(', ')} first.`);
    save.mutate(
      { ...(segment ? { id: segment.id } : {}), input: { name: name.trim(), rule } },
      {
        onSuccess: (saved) => {
          notify('success', `Saved ${saved.name}`);
          void navigate(`${basePath}/${audienceId}/segments`);
        },
        onError: (failure) => {
          if (failure instanceof ApiError && failure.status === 409) setNameError(errorMessage(failure, 'Another segment has this name.'));
          else setSaveError(failure instanceof ApiError ? failure : errorMessage(failure, 'The segment was not saved'));
        },
      },
    );
  };

  return (
    <section className={styles.root} aria-labelledby="segment-title">
      <RouterLink to={`${basePath}/${audienceId}/segments`}>Back to the segments of {audienceName}</RouterLink>
      <Title1 as="h1" id="segment-title">
        {segment ? `Segment ${segment.name}` : 'New segment'}
      </Title1>
      <Field label="Name" required className={styles.name} validationMessage={nameError} validationState={nameError ? 'error' : 'none'}>
        <Input value={name} maxLength={100} onChange={(_e, d) => setName(d.value)} />
      </Field>
      <Text as="h2" weight="semibold">
        Contacts of {audienceName} who match
      </Text>
      <SegmentBuilder fields={builderFields} byName={byName} campaigns={campaigns} query={query} onChange={setQuery} />
      <Text className={styles.words}>In words: {ruleToWords(rule, { campaigns: campaignNames, fields: fieldLabels })}</Text>
      {ruleError !== undefined && <RuleError error={ruleError} />}
      <SegmentCountStatus count={count.data} counting={count.isFetching} unfinished={unfinished.length} failed={count.isError} />
      <div className={styles.actions}>
        <RoleGate needs="editor" action="save segments">
          {(lock) => (
            <Button appearance="primary" icon={<SaveRegular />} disabled={save.isPending} onClick={onSave} {...lock}>
              {save.isPending ? 'Saving...' : 'Save segment'}
            </Button>
          )}
        </RoleGate>
        <Button icon={<EyeRegular />} disabled={unfinished.length > 0} onClick={() => setPreviewRule(withoutIds(rule))}>
          Preview
        </Button>
      </div>
      {previewRule &&
        (sample.isPending ? (
          <Spinner label="Loading matching contacts..." />
        ) : sample.isError ? null : sample.data.sample && sample.data.sample.length > 0 ? (
          <SegmentPreview contacts={sample.data.sample} fields={fields} />
        ) : (
          <Text>No contact matches.</Text>
        ))}
    </section>
  );
}

/** The API's refusal of a rule, each condition it named on its own line. */
function RuleError({ error }: { error: ApiError | string }) {
  const message = typeof error === 'string' ? error : errorMessage(error, 'The rule was refused');
  const details = typeof error === 'string' ? [] : (error.errors ?? []);
  return (
    <MessageBar intent="error" layout="multiline" role="alert">
      <MessageBarBody>
        <MessageBarTitle>The rule cannot be used as it is</MessageBarTitle>
        {message}
        {details.length > 0 && (
          <ul>
            {details.map((d, i) => (
              <li key={i}>{d.path ? `${d.path}: ${d.message}` : d.message}</li>
            ))}
          </ul>
        )}
      </MessageBarBody>
    </MessageBar>
  );
}

/** The rule without the builder's own ids: what decides the count. */
function withoutIds(rule: SegmentRule): SegmentRule {
  return {
    combinator: rule.combinator,
    rules: rule.rules.map((part) =>
      'rules' in part ? { combinator: part.combinator, rules: part.rules.map(({ id: _id, ...c }) => c) } : (({ id: _id, ...c }) => c)(part),
    ),
  };
}
