import clsx from 'clsx';
import { memo } from 'react';
import { FIELD_MAX_CHARS, type ContactField } from '@/lib/contact/fields';
import { contactForm as copy } from '@/lib/island-copy';
import styles from './contact-form.module.css';

const FIELD_PROPS: Record<
  ContactField,
  { type?: string; inputMode?: 'tel' | 'email'; autoComplete: string }
> = {
  name: { type: 'text', autoComplete: 'name' },
  mail: { type: 'email', inputMode: 'email', autoComplete: 'email' },
  phone: { type: 'text', inputMode: 'tel', autoComplete: 'tel' },
  reason: { autoComplete: 'off' },
};

type FieldProps = {
  field: ContactField;
  error: string | undefined;
  defaultValue: string;
  /** A keystroke: the form checks the field now and shows its message at the next pause (use-field-messages.ts). */
  onChange: (field: ContactField, value: string) => void;
  /** A blur: the field's message is shown at the next pause. */
  onBlur: (field: ContactField) => void;
};

/** One labelled field and its message; rendered again only when its own props change. */
export const Field = memo(function Field({
  field,
  error,
  defaultValue,
  onChange,
  onBlur,
}: FieldProps) {
  const id = `contacto-${field}`;
  const common = {
    id,
    name: field,
    required: true,
    defaultValue,
    maxLength: FIELD_MAX_CHARS[field],
    'aria-invalid': error ? true : undefined,
    'aria-describedby': error ? `${id}-error` : undefined,
    onChange: (event: { target: { value: string } }) => onChange(field, event.target.value),
    onBlur: () => onBlur(field),
    className: clsx(styles.input, error && styles.inputInvalid),
    ...FIELD_PROPS[field],
  };
  return (
    <div className={styles.field}>
      <label htmlFor={id} className={styles.label}>
        {copy.labels[field]}
      </label>
      {field === 'reason' ? <textarea rows={4} {...common} /> : <input {...common} />}
      {/* The line is kept even while empty: a message that comes or goes moves nothing below it,
          so a keystroke repaints this field only. */}
      <div className={styles.message}>
        {error ? (
          <p id={`${id}-error`} className={styles.error}>
            {error}
          </p>
        ) : null}
      </div>
    </div>
  );
});
