/**
 * The words of a protocol proposal, which travel as strings (ProtocolProposal.status,
 * ProposalComment.kind and author_role), in one place: the experiments service writes them,
 * the gateway documents and answers them.
 */
export const PROPOSAL_STEPS = ["proposed", "changes_requested", "accepted"] as const;
export type ProposalStep = (typeof PROPOSAL_STEPS)[number];

/** Who wrote a proposal's comment: staff propose, the requester accepts or asks for changes. */
export const PROPOSAL_AUTHOR_ROLES = ["staff", "requester"] as const;
export type ProposalAuthorRole = (typeof PROPOSAL_AUTHOR_ROLES)[number];
