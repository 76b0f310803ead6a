import { Button, MessageBar, MessageBarActions, MessageBarBody, MessageBarTitle } from '@fluentui/react-components';

export interface ErrorPanelProps {
  message: string;
  title?: string;
  /** Shows a Retry action when given. */
  onRetry?: () => void;
}

/** An error in place of content that failed to load (a query, or a whole remote). */
export function ErrorPanel({ message, title = 'Something went wrong', onRetry }: ErrorPanelProps) {
  return (
    <MessageBar intent="error" layout="multiline" role="alert">
      <MessageBarBody>
        <MessageBarTitle>{title}</MessageBarTitle>
        {message}
      </MessageBarBody>
      {onRetry && (
        <MessageBarActions>
          <Button onClick={onRetry}>Retry</Button>
        </MessageBarActions>
      )}
    </MessageBar>
  );
}
