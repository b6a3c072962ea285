import type { ReactNode } from "react";

/**
 * One radio option of a `fieldset.choices` group, drawn as a card: the whole card is the label,
 * so a click anywhere picks it, and arrow keys move within the group as for any radio.
 */
export function Choice(props: {
  name: string;
  value: string | number;
  selected: boolean;
  onSelect: () => void;
  children: ReactNode;
}) {
  return (
    <label className={`choice ${props.selected ? "selected" : ""}`}>
      <input type="radio" name={props.name} value={props.value} checked={props.selected} onChange={props.onSelect} />
      <span className="choice-body">{props.children}</span>
    </label>
  );
}
