import { makeStyles, tokens } from '@fluentui/react-components';
import { useMemo } from 'react';
import QueryBuilder, { type OptionGroup, type RuleGroupType } from 'react-querybuilder';
import { fluentControls, type BuilderContext } from './BuilderControls';
import { defaultValue, type FieldsByName, type SegmentField, type SentCampaign } from './segment-fields';

const useStyles = makeStyles({
  group: {
    display: 'flex',
    flexDirection: 'column',
    rowGap: tokens.spacingVerticalS,
    padding: tokens.spacingHorizontalM,
    border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke1}`,
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorNeutralBackground2,
  },
  header: { display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: tokens.spacingHorizontalS },
  body: { display: 'flex', flexDirection: 'column', rowGap: tokens.spacingVerticalS },
  rule: { display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: tokens.spacingHorizontalS },
  control: { maxWidth: '100%' },
});

export interface SegmentBuilderProps {
  fields: OptionGroup<SegmentField>[];
  byName: FieldsByName;
  campaigns: readonly SentCampaign[];
  query: RuleGroupType;
  onChange: (query: RuleGroupType) => void;
}

/**
 * The rule's builder: react-querybuilder's state and structure (conditions, groups one level deep, AND or OR)
 * with Fluent controls (BuilderControls). A condition's value starts as its field and operator suggest and is
 * reset when the operator changes, since what a value means depends on both.
 */
export function SegmentBuilder({ fields, byName, campaigns, query, onChange }: SegmentBuilderProps) {
  const styles = useStyles();
  const context = useMemo<BuilderContext>(() => ({ fields: byName, campaigns }), [byName, campaigns]);
  return (
    <QueryBuilder
      fields={fields}
      query={query}
      onQueryChange={onChange}
      controlElements={fluentControls}
      context={context}
      resetOnOperatorChange
      addRuleToNewGroups
      getDefaultValue={(rule) => defaultValue(byName.get(rule.field), rule.operator, campaigns)}
      controlClassnames={{
        ruleGroup: styles.group,
        header: styles.header,
        body: styles.body,
        rule: styles.rule,
        fields: styles.control,
        operators: styles.control,
        value: styles.control,
      }}
    />
  );
}
