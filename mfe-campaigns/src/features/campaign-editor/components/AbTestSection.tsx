import { Button, Field, Input, Radio, RadioGroup, Select, Spinner, Switch, Text, makeStyles, tokens } from '@fluentui/react-components';
import { errorMessage, type AbTest, type AbTestInput, type AbTestMeasure } from '@mailroom/api-client';
import { useRemote } from '@mailroom/mf-contract/react';
import { useState } from 'react';
import { useAbTest, useDeleteAbTest, useSaveAbTest } from '../api/abTest';
import { useTemplatePage } from '../api/pickers';
import { EditorSection } from './EditorSection';

const useStyles = makeStyles({
  form: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalM, width: '100%', maxWidth: '640px' },
  variant: {
    display: 'flex',
    flexDirection: 'column',
    rowGap: tokens.spacingVerticalS,
    margin: 0,
    padding: tokens.spacingHorizontalM,
    border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
  },
  legend: { fontWeight: tokens.fontWeightSemibold, paddingInline: tokens.spacingHorizontalXS },
  row: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalM },
  number: { width: '10rem' },
  actions: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalS },
  hint: { color: tokens.colorNeutralForeground2 },
});

/** A variant's letter as the screens show it. */
export const variantLetter = (position: number): string => String.fromCharCode(65 + position);

const MEASURE_WORDS: Record<AbTestMeasure, string> = { PEOPLE_OPENS: "people's opens", PEOPLE_CLICKS: "people's clicks" };

interface VariantForm {
  subject: string;
  previewText: string;
  fromName: string;
  /** '' keeps the campaign's template. */
  templateId: string;
}

interface TestForm {
  testShare: string;
  waitHours: string;
  measure: AbTestMeasure;
  defaultVariant: number;
  variants: VariantForm[];
}

const EMPTY_VARIANT: VariantForm = { subject: '', previewText: '', fromName: '', templateId: '' };

function formOf(test: AbTest | null): TestForm {
  if (!test)
    return { testShare: '20', waitHours: '4', measure: 'PEOPLE_OPENS', defaultVariant: 0, variants: [EMPTY_VARIANT, EMPTY_VARIANT] };
  return {
    testShare: String(test.testShare),
    waitHours: String(test.waitHours),
    measure: test.measure,
    defaultVariant: test.defaultVariant,
    variants: test.variants.map((v) => ({
      subject: v.subject ?? '',
      previewText: v.previewText ?? '',
      fromName: v.fromName ?? '',
      templateId: v.templateId === null ? '' : String(v.templateId),
    })),
  };
}

/** The form as the API takes it: blank fields keep the campaign's own. */
function inputOf(form: TestForm): AbTestInput {
  const text = (value: string) => (value.trim() === '' ? null : value.trim());
  return {
    testShare: Number(form.testShare),
    waitHours: Number(form.waitHours),
    measure: form.measure,
    defaultVariant: form.defaultVariant,
    variants: form.variants.map((v) => ({
      subject: text(v.subject),
      previewText: text(v.previewText),
      fromName: text(v.fromName),
      templateId: v.templateId === '' ? null : Number(v.templateId),
    })),
  };
}

/** What is wrong with the form before it is sent (the API checks again). */
function formProblem(form: TestForm): string | undefined {
  const share = Number(form.testShare);
  const hours = Number(form.waitHours);
  if (!Number.isInteger(share) || share < 10 || share > 50) return 'The test share is a whole percent from 10 to 50.';
  if (!Number.isInteger(hours) || hours < 1 || hours > 72) return 'The wait is a whole number of hours from 1 to 72.';
  const blank = form.variants.findIndex((v) => !v.subject.trim() && !v.previewText.trim() && !v.fromName.trim() && !v.templateId);
  if (blank >= 0) return `Variant ${variantLetter(blank)} changes nothing: give it a subject, preview text, sender name or template.`;
  return undefined;
}

export function abTestSummary(test: AbTest | null | undefined): string {
  if (!test) return 'Optional: try two to four variants on part of the recipients, and send the one people prefer to the rest.';
  return `${test.variants.length} variants to ${test.testShare} % of the recipients; after ${test.waitHours} h the winner by ${MEASURE_WORDS[test.measure]} goes to the rest.`;
}

/**
 * The editor's "A/B test" section (issue 28): two to four variants of subject, preview text, sender name or
 * template, the test share, the wait, the measure (people's opens or clicks: machines never count) and the
 * default when no variant wins. Saved on its own, beside the campaign's Finish later.
 */
export function AbTestSection({ campaignId, disabled = false }: { campaignId: number; disabled?: boolean }) {
  const test = useAbTest(campaignId);
  return (
    <EditorSection value="ab-test" title="A/B test" done={!!test.data} summary={abTestSummary(test.data)}>
      {test.isPending ? (
        <Spinner size="tiny" label="Loading the A/B test" />
      ) : (
        // Remounted when the saved test changes, so the form starts from what was saved.
        <AbTestForm key={JSON.stringify(test.data ?? null)} campaignId={campaignId} saved={test.data ?? null} disabled={disabled} />
      )}
    </EditorSection>
  );
}

function AbTestForm({ campaignId, saved, disabled }: { campaignId: number; saved: AbTest | null; disabled: boolean }) {
  const styles = useStyles();
  const { notify } = useRemote();
  const [enabled, setEnabled] = useState(saved !== null);
  const [form, setForm] = useState<TestForm>(() => formOf(saved));
  const [problem, setProblem] = useState<string | undefined>();
  const save = useSaveAbTest(campaignId);
  const remove = useDeleteAbTest(campaignId);
  const templates = useTemplatePage({ page: 1, limit: 100, name: '' });
  const busy = save.isPending || remove.isPending;

  const setVariant = (n: number, change: Partial<VariantForm>) =>
    setForm((current) => ({ ...current, variants: current.variants.map((v, i) => (i === n ? { ...v, ...change } : v)) }));
  const removeVariant = (n: number) =>
    setForm((current) => ({
      ...current,
      variants: current.variants.filter((_, i) => i !== n),
      defaultVariant: current.defaultVariant === n ? 0 : current.defaultVariant > n ? current.defaultVariant - 1 : current.defaultVariant,
    }));

  const onSave = async () => {
    const wrong = formProblem(form);
    setProblem(wrong);
    if (wrong) return;
    try {
      await save.mutateAsync(inputOf(form));
      notify('success', 'A/B test saved');
    } catch (error) {
      setProblem(errorMessage(error, 'Failed to save the A/B test'));
    }
  };

  const onSwitch = async (on: boolean) => {
    setEnabled(on);
    setProblem(undefined);
    if (on || saved === null) return;
    try {
      await remove.mutateAsync();
      notify('success', 'A/B test removed');
    } catch (error) {
      setEnabled(true);
      setProblem(errorMessage(error, 'Failed to remove the A/B test'));
    }
  };

  return (
    <div className={styles.form}>
      <Switch
        label="Test variants of this campaign"
        checked={enabled}
        disabled={disabled || busy}
        onChange={(_, data) => void onSwitch(data.checked)}
      />
      {enabled && (
        <>
          <Text className={styles.hint}>
            Each variant changes only what you fill in; the rest is the campaign&apos;s own. The winner is judged on what people did: opens
            by privacy proxies and clicks by link scanners never count.
          </Text>
          {form.variants.map((variant, n) => {
            const letter = variantLetter(n);
            return (
              <fieldset key={n} className={styles.variant}>
                <legend className={styles.legend}>Variant {letter}</legend>
                <Field label={`Subject of variant ${letter}`}>
                  <Input
                    value={variant.subject}
                    maxLength={998}
                    disabled={disabled}
                    onChange={(_, data) => setVariant(n, { subject: data.value })}
                  />
                </Field>
                <Field label={`Preview text of variant ${letter}`}>
                  <Input
                    value={variant.previewText}
                    maxLength={500}
                    disabled={disabled}
                    onChange={(_, data) => setVariant(n, { previewText: data.value })}
                  />
                </Field>
                <Field label={`Sender name of variant ${letter}`}>
                  <Input
                    value={variant.fromName}
                    maxLength={200}
                    disabled={disabled}
                    onChange={(_, data) => setVariant(n, { fromName: data.value })}
                  />
                </Field>
                <Field label={`Template of variant ${letter}`}>
                  <Select value={variant.templateId} disabled={disabled} onChange={(_, data) => setVariant(n, { templateId: data.value })}>
                    <option value="">The campaign&apos;s template</option>
                    {templates.data?.items.map((template) => (
                      <option key={template.id} value={String(template.id)}>
                        {template.name}
                      </option>
                    ))}
                  </Select>
                </Field>
                {form.variants.length > 2 && !disabled && (
                  <Button appearance="subtle" onClick={() => removeVariant(n)}>
                    Remove variant {letter}
                  </Button>
                )}
              </fieldset>
            );
          })}
          {form.variants.length < 4 && !disabled && (
            <Button onClick={() => setForm((current) => ({ ...current, variants: [...current.variants, EMPTY_VARIANT] }))}>
              Add variant
            </Button>
          )}
          <div className={styles.row}>
            <Field label="Test share (%)" hint="10 to 50 % of the recipients, split evenly at random.">
              <Input
                className={styles.number}
                type="number"
                min={10}
                max={50}
                value={form.testShare}
                disabled={disabled}
                onChange={(_, data) => setForm((current) => ({ ...current, testShare: data.value }))}
              />
            </Field>
            <Field label="Wait (hours)" hint="1 to 72 hours before the winner is chosen.">
              <Input
                className={styles.number}
                type="number"
                min={1}
                max={72}
                value={form.waitHours}
                disabled={disabled}
                onChange={(_, data) => setForm((current) => ({ ...current, waitHours: data.value }))}
              />
            </Field>
          </div>
          <Field label="The winner is the variant with the most">
            <RadioGroup
              value={form.measure}
              disabled={disabled}
              onChange={(_, data) => setForm((current) => ({ ...current, measure: data.value as AbTestMeasure }))}
            >
              <Radio value="PEOPLE_OPENS" label="People's opens" />
              <Radio value="PEOPLE_CLICKS" label="People's clicks" />
            </RadioGroup>
          </Field>
          <Field label="When no variant wins at 95 % confidence, send">
            <Select
              value={String(form.defaultVariant)}
              disabled={disabled}
              onChange={(_, data) => setForm((current) => ({ ...current, defaultVariant: Number(data.value) }))}
            >
              {form.variants.map((_, n) => (
                <option key={n} value={String(n)}>
                  Variant {variantLetter(n)}
                </option>
              ))}
            </Select>
          </Field>
          {problem && (
            <Text role="alert" className={styles.hint}>
              {problem}
            </Text>
          )}
          {!disabled && (
            <div className={styles.actions}>
              <Button appearance="primary" disabled={busy} onClick={() => void onSave()}>
                Save A/B test
              </Button>
            </div>
          )}
        </>
      )}
    </div>
  );
}
