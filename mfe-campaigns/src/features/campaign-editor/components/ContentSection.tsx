import { Button, Text, makeStyles, tokens } from '@fluentui/react-components';
import { DocumentRegular } from '@fluentui/react-icons/svg/document';
import type { CampaignDraft } from '../utils/draft';
import { EditorSection } from './EditorSection';
import { TemplatePreviewImage } from './TemplatePreviewImage';
import { RoleGate } from '@mailroom/ui';

const useStyles = makeStyles({
  chosen: { display: 'flex', alignItems: 'center', flexWrap: 'wrap', gap: tokens.spacingHorizontalM },
});

/** The template the campaign sends; `onChoose` opens the template picker; `disabled` in a campaign no longer a draft. */
export function ContentSection({
  template,
  onChoose,
  disabled = false,
}: {
  template: CampaignDraft['template'];
  onChoose: () => void;
  disabled?: boolean;
}) {
  const styles = useStyles();
  const name = template ? template.name || `Template ${template.id}` : '';
  return (
    <EditorSection value="content" title="Content" done={template !== null} summary={template ? name : 'Which template is sent?'}>
      {template ? (
        <div className={styles.chosen}>
          <TemplatePreviewImage name={name} preview={template.preview} large />
          <Text>Template: {name}</Text>
        </div>
      ) : (
        <Text>No template chosen yet.</Text>
      )}
      <RoleGate needs="editor" action="choose a campaign's template">
        {(lock) => (
          <Button icon={<DocumentRegular />} disabled={disabled} onClick={onChoose} {...lock}>
            {template ? 'Change template' : 'Choose template'}
          </Button>
        )}
      </RoleGate>
    </EditorSection>
  );
}
