import {
  Button,
  Spinner,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  Text,
  Title1,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { AddRegular, DeleteRegular, EditRegular } from '@fluentui/react-icons';
import { errorMessage, type Segment } from '@mailroom/api-client';
import { ruleToWords } from '@mailroom/api-client/segments';
import { useRemote } from '@mailroom/mf-contract/react';
import { REMOTES } from '@mailroom/mf-contract/remotes';
import {
  ConfirmDialog,
  EmptyState,
  ErrorPanel,
  RouterLink,
  ScrollingTable,
  TruncatedText,
  formatDateTime,
  parseRouteId,
  RoleGate,
} from '@mailroom/ui';
import { useMemo, useState } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { AudienceNotFound } from '../../../components/AudienceNotFound';
import { useDeleteSegment, useSegmentFields, useSegments, useSegmentsAudience, type TargetingCampaign } from '../api/segments';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalL },
  header: { display: 'flex', flexWrap: 'wrap', alignItems: 'center', justifyContent: 'space-between', gap: tokens.spacingHorizontalM },
  actions: { display: 'flex', flexWrap: 'nowrap', gap: tokens.spacingHorizontalXS },
});

/** /audiences/{id}/segments: the audience's segments, each opened to edit it or deleted (refused while unsent campaigns target it). */
export function SegmentsRoute() {
  const styles = useStyles();
  const { basePath, notify } = useRemote();
  const navigate = useNavigate();
  const id = parseRouteId(useParams().id);
  const audience = useSegmentsAudience(id ?? 0);
  const segments = useSegments(id ?? 0);
  const remove = useDeleteSegment(id ?? 0);
  const fields = useSegmentFields(id ?? 0);
  const fieldLabels = useMemo(() => new Map((fields.data ?? []).map((f) => [f.key, f.label])), [fields.data]);
  const [deleting, setDeleting] = useState<Segment>();
  const [inUse, setInUse] = useState<{ message: string; campaigns: TargetingCampaign[] }>();

  if (id !== null && audience.isPending) return <Spinner label="Loading audience..." />;
  if (!audience.data) return <AudienceNotFound error={id === null ? null : audience.error} onRetry={() => void audience.refetch()} />;
  const { data } = audience;
  const newSegment = () => void navigate(`${basePath}/${data.id}/segments/new`);

  const close = () => {
    setDeleting(undefined);
    setInUse(undefined);
  };

  return (
    <section className={styles.root} aria-labelledby="segments-title">
      <RouterLink to={`${basePath}/${data.id}`}>Back to {data.name}</RouterLink>
      <div className={styles.header}>
        <Title1 as="h1" id="segments-title">
          Segments
        </Title1>
        {segments.data && segments.data.length > 0 && (
          <RoleGate needs="editor" action="make segments">
            {(lock) => (
              <Button appearance="primary" icon={<AddRegular />} onClick={newSegment} {...lock}>
                New segment
              </Button>
            )}
          </RoleGate>
        )}
      </div>
      <Text>A segment is a saved rule over the contacts of {data.name}: a campaign can go to a segment instead of the whole audience.</Text>
      {segments.isPending ? (
        <Spinner label="Loading segments..." />
      ) : segments.isError ? (
        <ErrorPanel message={errorMessage(segments.error, 'Failed to load the segments')} onRetry={() => void segments.refetch()} />
      ) : segments.data.length === 0 ? (
        <EmptyState
          title="No segments yet"
          description="Choose contacts by their fields, their subscription or what they opened and clicked."
          action={
            <RoleGate needs="editor" action="make segments">
              {(lock) => (
                <Button appearance="primary" icon={<AddRegular />} onClick={newSegment} {...lock}>
                  New segment
                </Button>
              )}
            </RoleGate>
          }
        />
      ) : (
        <ScrollingTable aria-label="Segments">
          <TableHeader>
            <TableRow>
              <TableHeaderCell>Name</TableHeaderCell>
              <TableHeaderCell>Rule</TableHeaderCell>
              <TableHeaderCell>Updated</TableHeaderCell>
              <TableHeaderCell>Actions</TableHeaderCell>
            </TableRow>
          </TableHeader>
          <TableBody>
            {segments.data.map((segment) => (
              <TableRow key={segment.id}>
                <TableCell>
                  <RouterLink to={`${basePath}/${data.id}/segments/${segment.id}`}>{segment.name}</RouterLink>
                </TableCell>
                <TableCell>
                  <TruncatedText text={ruleToWords(segment.rule, { fields: fieldLabels })} max={60} />
                </TableCell>
                <TableCell>{formatDateTime(segment.updatedAt)}</TableCell>
                <TableCell>
                  <div className={styles.actions}>
                    <Button
                      size="small"
                      icon={<EditRegular />}
                      onClick={() => void navigate(`${basePath}/${data.id}/segments/${segment.id}`)}
                      aria-label={`Edit ${segment.name}`}
                    >
                      Edit
                    </Button>
                    <RoleGate needs="editor" action="delete segments">
                      {(lock) => (
                        <Button
                          size="small"
                          icon={<DeleteRegular />}
                          onClick={() => setDeleting(segment)}
                          aria-label={`Delete ${segment.name}`}
                          {...lock}
                        >
                          Delete
                        </Button>
                      )}
                    </RoleGate>
                  </div>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </ScrollingTable>
      )}
      <ConfirmDialog
        open={!!deleting}
        title={inUse ? 'This segment is in use' : `Delete ${deleting?.name ?? 'this segment'}?`}
        confirmLabel={inUse ? 'Close' : 'Delete'}
        busy={remove.isPending}
        onCancel={close}
        onConfirm={() => {
          if (inUse || !deleting) return close();
          remove.mutate(deleting.id, {
            onSuccess: (outcome) => {
              if (outcome.deleted) {
                notify('success', `Deleted ${deleting.name}`);
                close();
              } else setInUse({ message: outcome.message, campaigns: outcome.campaigns });
            },
            onError: (failure) => notify('error', errorMessage(failure, 'The segment was not deleted')),
          });
        }}
      >
        {inUse ? (
          <>
            <Text role="alert">{inUse.message}</Text>
            {inUse.campaigns.length > 0 && (
              <ul aria-label="Campaigns that target it">
                {inUse.campaigns.map((c) => (
                  <li key={c.id}>
                    <RouterLink to={`${REMOTES.campaigns.basePath}/${c.id}`}>{c.name}</RouterLink>
                  </li>
                ))}
              </ul>
            )}
            <Text>Choose another segment in those campaigns, or delete them, then delete this segment.</Text>
          </>
        ) : (
          'Campaigns already sent to it keep the rule they were sent with.'
        )}
      </ConfirmDialog>
    </section>
  );
}
