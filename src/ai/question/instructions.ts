/**
 * A question as asked, apart from the instructions written around it: a role to play ("You are an investment
 * banker … Here's the question: …"), how to answer ("Give a response … by relying on the cash flow statement",
 * "Round your answer to two decimal places", "(in USD millions)"), a definition, or what to say when the measure does
 * not fit. Instructions name statements, units and measures that are not what is asked; read as part of the question
 * they would become its figure.
 */
const PREAMBLE = /^.*?\bhere(?:'|’)?s the question:\s*|^.*?\bhere is the question:\s*|^.*?\bthe question is:\s*/is;
const INSTRUCTION_SENTENCE =
  /^(?:please\b|kindly\b|give\b|round\b|answer\b|provide\b|use\b|utili[sz]e\b|using\b|base\b|rely\b|respond\b|express\b|show your\b|assume\b|calculate (?:it|this|using|what)\b|calculate [^?]*?\busing\b|compute (?:it|this|using|or)\b|address\b|define\b|we (?:want|need|would like)\b|help us\b|if\b.*\b(?:state|explain|say)\b)/i;
const DEFINITION = /^(?:(?:\S+\s+){1,8}(?:is|are|is being) (?:defined|calculated|computed) as\b|definitions?\b)/i;
/** "(in USD millions)", "(round to one decimal place)", "(D&A from cash flow statement)", "[from cash flow statement]". */
const INSTRUCTION_PARENTHESIS =
  /\s*\((?:in (?:usd|units|us\$|\$|percent|millions|billions|thousands)\b|round\b|rounded\b|expressed\b|using\b|based on\b|as a %)[^()]*\)|\s*[([][^()[\]]*\b(?:statements?|balance sheet|p&l)\b[^()[\]]*[)\]]/gi;
/** A clause that says where to look, before the question itself: "Based on the information in the balance sheet, …". */
const SOURCE_CLAUSE =
  /^(?:based (?:up)?on|considering|using|according to|basing your judg(?:e)?ments? (?:off of|off|on|by)|in agreement with|taking into account|by drawing conclusions from|with reference to|referring to|relying on|looking at|from)\b[^,?]{0,200},\s*/i;
/** Notes in parentheses that say nothing of what is asked: an acronym of the words before it, a former name. */
const ASIDE = /\s*\((?:[A-Z&]{2,6}|formerly(?: known as)? [^()]*)\)/g;
const SOURCES = /\b(?:statements?|balance sheet|p&l|information|details|data|line items)\b/i;
const ANSWER_THE_QUESTION = /\banswer the following question(?: to the best of your abilit(?:y|ies))?:\s*/i;

const NAMES_A_PERIOD = /\b(?:FY\s?\d{2,4}|(?:19|20)\d{2}|Q[1-4])\b/i;

export interface AskedText {
  /** The question itself, to read for companies, periods and measures. */
  question: string;
  /** The instructions around it, as written. */
  instructions: string[];
}

/** The question without a leading clause that says where to look ("Using the cash flow statement, answer …: how much …"). */
function withoutSourceClause(sentence: string, instructions: string[]): string {
  let question = sentence;
  for (const pattern of [SOURCE_CLAUSE, ANSWER_THE_QUESTION]) {
    const found = pattern.exec(question);
    if (!found || question.length - found[0].length < 10) continue;
    // Only a clause about the sources; one that names a period or a company's anything says what is asked.
    if (
      pattern === SOURCE_CLAUSE &&
      (!SOURCES.test(found[0]) || NAMES_A_PERIOD.test(found[0]) || /['’]s\b/.test(found[0]))
    )
      continue;
    instructions.push(found[0].trim());
    question = question.slice(0, found.index) + question.slice(found.index + found[0].length);
  }
  return question;
}

export function separateInstructions(text: string): AskedText {
  const instructions: string[] = [];
  const preamble = PREAMBLE.exec(text);
  let rest = text;
  if (preamble) {
    instructions.push(preamble[0].trim());
    rest = text.slice(preamble[0].length);
  }
  rest = rest.replace(INSTRUCTION_PARENTHESIS, (found) => {
    instructions.push(found.trim());
    return '';
  });
  rest = rest.replace(ASIDE, (found) => {
    instructions.push(found.trim());
    return '';
  });
  const sentences = rest.split(/(?<=[.?!])\s+(?=\S)/);
  // The question is the sentence that asks (ends with "?"), else the first; around it, instructions.
  const asking = Math.max(
    0,
    sentences.findIndex((sentence) => sentence.trim().endsWith('?')),
  );
  const kept: string[] = [];
  for (const [index, sentence] of sentences.entries()) {
    const trimmed = sentence.trim();
    const instruction =
      DEFINITION.test(trimmed) || (INSTRUCTION_SENTENCE.test(trimmed) && !NAMES_A_PERIOD.test(trimmed));
    if (index !== asking && instruction) instructions.push(trimmed);
    else kept.push(index === asking ? withoutSourceClause(trimmed, instructions) : sentence);
  }
  const question = kept.join(' ').trim();
  return question ? { question, instructions } : { question: text.trim(), instructions: [] };
}
