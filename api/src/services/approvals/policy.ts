/**
 * When a send needs another member's approval (issue 27; docs/decisions/send-approval.md): every campaign with
 * SEND_APPROVAL=true, or those whose audience holds more than SEND_APPROVAL_ABOVE contacts. Neither set: never,
 * the spec's behaviour.
 */
export interface ApprovalSettings {
  /** SEND_APPROVAL: every send and schedule. */
  always: boolean;
  /** SEND_APPROVAL_ABOVE: only campaigns whose audience has more contacts than this (undefined: no threshold). */
  above: number | undefined;
}

export const NO_APPROVAL: ApprovalSettings = { always: false, above: undefined };

/** Whether a campaign's send or schedule waits for approval, by its audience's number of contacts. */
export const approvalPolicy =
  ({ always, above }: ApprovalSettings) =>
  (campaign: { numberOfContacts: number }): boolean =>
    always || (above !== undefined && campaign.numberOfContacts > above);

export type ApprovalPolicy = ReturnType<typeof approvalPolicy>;
