/** A form's values by field name, as its inputs hold them. */
export type Values = Record<string, any>;
