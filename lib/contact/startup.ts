import 'server-only';
import { getContactConfig } from '@/lib/env/server';

export function describeContactConfig(): void {
  const config = getContactConfig();
  if (config.mode === 'misconfigured') {
    console.error(`[contacto] ERROR DE CONFIGURACIÓN: ${config.problem} El formulario mostrará un error a cada visitante.`);
  } else if (config.mode === 'inbox') {
    console.info(`[contacto] Sin CONTACT_API_BASE_URL: las solicitudes se guardan en la bandeja local ${config.dir}/enquiries.jsonl`);
  }
}
