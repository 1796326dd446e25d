import { Fragment } from 'react';
import { Icon } from '@/components/icon';
import { ANALYTICS_EVENT_ATTRIBUTE } from '@/lib/browser/analytics';
import { floatingChat } from '@/lib/content';
import styles from './floating-chat.module.css';

/**
 * Server-rendered. The 'whatsapp' analytics event is sent by the delegated
 * click listener in ThirdPartyScripts, so this link ships no JavaScript.
 */
export function FloatingChat({ whatsappUrl }: { whatsappUrl: string }) {
  return (
    <a
      className={styles.chat}
      href={whatsappUrl}
      target="_blank"
      rel="noopener noreferrer"
      title={floatingChat.description}
      {...{ [ANALYTICS_EVENT_ATTRIBUTE]: 'whatsapp' }}
    >
      <Icon name="whatsapp" className={styles.icon} />
      <span className={styles.label}>
        {/* Break after the slash so the label wraps inside the circle. */}
        {floatingChat.label.split('/').map((part, index) => (
          <Fragment key={part}>
            {index > 0 ? (
              <>
                /<wbr />
              </>
            ) : null}
            {part}
          </Fragment>
        ))}
      </span>
    </a>
  );
}
