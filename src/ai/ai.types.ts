import { Field, Float, ID, InputType, Int, InterfaceType, ObjectType, registerEnumType } from 'type-graphql';

export type CitationKind = 'STATEMENT' | 'DOCUMENT';
export const CitationKindEnum = { STATEMENT: 'STATEMENT', DOCUMENT: 'DOCUMENT' } as const satisfies Record<
  CitationKind,
  CitationKind
>;
registerEnumType(CitationKindEnum, {
  name: 'CitationKind',
  description: 'A statement field, or a passage of a stored document.',
});

export type ChatEventType = 'TOKEN' | 'STATUS' | 'CITATIONS' | 'DONE' | 'ERROR';
export const ChatEventTypeEnum = {
  TOKEN: 'TOKEN',
  STATUS: 'STATUS',
  CITATIONS: 'CITATIONS',
  DONE: 'DONE',
  ERROR: 'ERROR',
} as const satisfies Record<ChatEventType, ChatEventType>;
registerEnumType(ChatEventTypeEnum, { name: 'ChatEventType' });

@ObjectType({
  description: 'What an analysis was written from: a statement field (company, period, field) or a document passage.',
})
export class Citation {
  @Field(() => CitationKindEnum)
  kind!: CitationKind;

  @Field(() => Int)
  companyId!: number;

  @Field()
  ticker!: string;

  @Field(() => String, { nullable: true, description: 'Statement citations: the period of the figure.' })
  period!: string | null;

  @Field(() => String, {
    nullable: true,
    description: 'income_statement, balance_sheet, cash_flow, ratios or derived (a change computed from them).',
  })
  statement!: string | null;

  @Field(() => String, { nullable: true, description: 'camelCase field, e.g. netIncome, grossMargin, revenueChange.' })
  field!: string | null;

  @Field(() => Float, { nullable: true })
  value!: number | null;

  @Field(() => Int, { nullable: true })
  chunkId!: number | null;

  @Field(() => Int, { nullable: true })
  documentId!: number | null;

  @Field(() => String, { nullable: true, description: 'Document citations: the document title.' })
  title!: string | null;

  @Field(() => Int, {
    nullable: true,
    description: 'Document citations: the page of the document the passage is on, from 1.',
  })
  page!: number | null;
}

@ObjectType({ description: 'The check of every number in a text against the facts it was written from.' })
export class Grounding {
  @Field(() => Int)
  numbersChecked!: number;

  @Field(() => Int)
  numbersUnsupported!: number;

  @Field(() => [String], {
    description: 'Numbers found in the text that no fact or cited passage supports, as written.',
  })
  unsupported!: string[];

  @Field(() => Int, { description: 'Figures bound to a claim (company, period, metric as the sentence gives them).' })
  claimsChecked!: number;

  @Field(() => Int, { description: 'Claims a stored fact or a cited passage supports.' })
  claimsSupported!: number;

  @Field(() => Int, {
    description:
      'Claims flagged: unsupported, wrong company, period or metric, wrong direction, or contradicting the stored statement.',
  })
  claimsFlagged!: number;
}

@ObjectType({
  description: 'A figure of an answer bound to what its sentence says it is, with the verdict of the check.',
})
export class Claim {
  @Field({ description: 'The figure as written.' })
  text!: string;

  @Field({
    description:
      'SUPPORTED, UNSUPPORTED, WRONG_COMPANY, WRONG_PERIOD, WRONG_METRIC, WRONG_DIRECTION or CONTRADICTS_STATEMENT.',
  })
  verdict!: string;

  @Field(() => String, { nullable: true, description: 'The company the sentence gives the figure to.' })
  ticker!: string | null;

  @Field(() => String, { nullable: true, description: 'The period label nearest the figure.' })
  period!: string | null;

  @Field(() => String, { nullable: true, description: 'The metric (camelCase) named before the figure.' })
  metric!: string | null;

  @Field(() => Int, { nullable: true, description: 'The passage that supports it, when a passage does.' })
  chunkId!: number | null;
}

@ObjectType()
export class Summary {
  @Field()
  summary!: string;

  @Field()
  summaryType!: string;

  @Field(() => Int)
  companyId!: number;

  @Field()
  period!: string;

  @Field(() => [Citation])
  citations!: Citation[];

  @Field(() => Grounding)
  grounding!: Grounding;

  @Field(() => [Claim], { description: 'Every figure of the summary with its verdict.' })
  claims!: Claim[];

  @Field({ description: 'The writer: builtin-analyst-v1, or openai:<host>/<model>.' })
  model!: string;
}

@ObjectType()
export class MetricValue {
  @Field(() => Int)
  companyId!: number;

  @Field()
  ticker!: string;

  @Field()
  period!: string;

  @Field({ description: 'ISO 4217 currency of money values (the company\u2019s reporting currency).' })
  currency!: string;

  @Field(() => Float, { nullable: true, description: 'Null when the company does not report it for the period.' })
  value!: number | null;
}

@ObjectType({ description: 'One compared measure across the companies.' })
export class ComparisonRow {
  @Field({ description: 'camelCase field, e.g. revenue, netMargin, revenueChange.' })
  metric!: string;

  @Field()
  label!: string;

  @Field({
    description:
      'money (in the company\u2019s reporting currency), money_per_share, fraction (0.125 = 12.5%), points (a change of a fraction) or multiple.',
  })
  unit!: string;

  @Field(() => [MetricValue])
  values!: MetricValue[];
}

@ObjectType()
export class Comparison {
  @Field()
  comparison!: string;

  @Field(() => [Int])
  companyIds!: number[];

  @Field({ description: 'The period asked for (each row value carries the period it resolved to).' })
  period!: string;

  @Field(() => [ComparisonRow])
  table!: ComparisonRow[];

  @Field(() => [Citation])
  citations!: Citation[];

  @Field(() => Grounding)
  grounding!: Grounding;

  @Field(() => [Claim], { description: 'Every figure of the comparison with its verdict.' })
  claims!: Claim[];

  @Field()
  model!: string;
}

@InputType()
export class SummarizeInput {
  @Field(() => Int)
  companyId!: number;

  @Field(() => String, { nullable: true, description: 'Q<n>-<yyyy>, FY<yyyy>, latest (default) or latest-fy.' })
  period?: string | null;

  @Field(() => String, {
    nullable: true,
    description: 'overview (default), profitability, balance_sheet, cash_flow or risks.',
  })
  summaryType?: string | null;
}

@InputType()
export class CompareInput {
  @Field(() => [Int], { description: '2 to 5 distinct companies.' })
  companyIds!: number[];

  @Field(() => String, { nullable: true, description: 'Q<n>-<yyyy>, FY<yyyy>, latest (default) or latest-fy.' })
  period?: string | null;

  @Field(() => [String], {
    nullable: true,
    description: 'Measures to compare (see the README); a default set when omitted.',
  })
  metrics?: string[] | null;
}

@InputType()
export class ChatMessageInput {
  @Field({ description: 'user or assistant.' })
  role!: string;

  @Field()
  content!: string;
}

@InputType()
export class ChatInput {
  @Field(() => [ChatMessageInput], { description: 'The new turn(s); the last one is the user\u2019s question.' })
  messages!: ChatMessageInput[];

  @Field(() => [Int], { nullable: true })
  companyIds?: number[] | null;

  @Field(() => ID, { nullable: true, description: 'Continue a stored conversation.' })
  conversationId?: string | null;
}

/**
 * One event of a streamed chat answer. Each kind is its own type with only the fields it carries (select them with
 * `... on ChatTokenEvent { text }`); `type` names the kind for clients that do not read `__typename`.
 */
@InterfaceType({
  description:
    'One event of a streamed chat answer: STATUS (what the writer is doing), TOKEN (text as it is produced), CITATIONS, then DONE (the whole answer), or ERROR.',
  resolveType: (event: { type: ChatEventType }) => CHAT_EVENT_TYPE_NAMES[event.type],
})
export abstract class ChatEvent {
  @Field(() => ChatEventTypeEnum)
  type!: ChatEventType;
}

@ObjectType({
  implements: ChatEvent,
  description: 'What the service is doing before the first token (the facts it writes from).',
})
export class ChatStatusEvent extends ChatEvent {
  declare type: 'STATUS';

  @Field()
  message!: string;
}

@ObjectType({ implements: ChatEvent, description: 'The next piece of the answer\u2019s text.' })
export class ChatTokenEvent extends ChatEvent {
  declare type: 'TOKEN';

  @Field()
  text!: string;
}

@ObjectType({ implements: ChatEvent, description: 'What the answer was written from, once the text is complete.' })
export class ChatCitationsEvent extends ChatEvent {
  declare type: 'CITATIONS';

  @Field(() => [Citation])
  citations!: Citation[];
}

@ObjectType({
  implements: ChatEvent,
  description: 'The whole answer, its citations and grounding, and the conversation to continue; the last event.',
})
export class ChatDoneEvent extends ChatEvent {
  declare type: 'DONE';

  @Field()
  answer!: string;

  @Field(() => [Citation])
  citations!: Citation[];

  @Field(() => Grounding)
  grounding!: Grounding;

  @Field(() => [Claim], { description: 'Every figure of the answer with its verdict.' })
  claims!: Claim[];

  @Field(() => ID, { description: 'The conversation to continue.' })
  conversationId!: string;

  @Field({ description: 'The writer.' })
  model!: string;
}

@ObjectType({
  implements: ChatEvent,
  description: 'The answer failed; the last event. `code` is one of the error envelope\u2019s codes.',
})
export class ChatErrorEvent extends ChatEvent {
  declare type: 'ERROR';

  @Field()
  code!: string;

  @Field()
  message!: string;
}

/** An event as the chat service yields it: one of the precise kinds, told apart by `type`. */
export type AnyChatEvent = ChatStatusEvent | ChatTokenEvent | ChatCitationsEvent | ChatDoneEvent | ChatErrorEvent;

const CHAT_EVENT_TYPE_NAMES: Record<ChatEventType, string> = {
  STATUS: 'ChatStatusEvent',
  TOKEN: 'ChatTokenEvent',
  CITATIONS: 'ChatCitationsEvent',
  DONE: 'ChatDoneEvent',
  ERROR: 'ChatErrorEvent',
};
