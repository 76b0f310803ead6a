import { MessageBar, MessageBarBody, MessageBarTitle } from '@fluentui/react-components';
import { useDeliveryEventsConfigured } from '../../api/deliveryEvents';

/** Why no mail of this deployment ever leaves 'Sent (waiting Ack)', in the words the report shows. */
export const DELIVERY_EVENTS_OFF =
  "Mailroom receives no delivery, bounce or complaint events from SES here, so every email stays 'Sent (waiting Ack)' and bounces are not recorded. Ask the people who run Mailroom to set up SES delivery events.";

/**
 * Says on the report that delivery events are not configured (an addition to the spec), when the API
 * says so; nothing while it is unknown, so a failed call never alarms anyone.
 */
export function DeliveryEventsNotice() {
  if (useDeliveryEventsConfigured() !== false) return null;
  return (
    <MessageBar intent="warning" layout="multiline">
      <MessageBarBody>
        <MessageBarTitle>Delivery events are not configured</MessageBarTitle>
        {DELIVERY_EVENTS_OFF}
      </MessageBarBody>
    </MessageBar>
  );
}
