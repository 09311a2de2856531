/** The kinds of prompt injection the rules name; a verdict carries one. */
export type RuleFamily =
  | 'override-instructions'
  | 'reveal-prompt'
  | 'role-change'
  | 'new-instructions'
  | 'from-now-on'
  | 'output-hijack'
  | 'exfiltration'
  | 'false-authority'
  | 'delimiter-escape'
  | 'fake-role-message'
  | 'chat-template'
  | 'roleplay-jailbreak'
  /** Structural (structure.ts): an instruction or a note addressed to the assistant. */
  | 'addressed-instruction';
