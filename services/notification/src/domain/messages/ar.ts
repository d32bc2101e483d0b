import type { Catalogue } from '@readiness/kit/i18n';
import type { MailMessage } from './en';

/**
 * Arabic (Modern Standard), written right to left. The student is addressed in forms that read the same for a man
 * and a woman when written without vowel marks (ندعوك، شهادتك، عند الضغط) rather than in gendered imperatives.
 */
export const ar: Catalogue<MailMessage> = {
  'mail.greeting': 'مرحبًا {name}،',
  'mail.footer': 'أُرسلت هذه الرسالة من {product}، منصة تقييم الجاهزية للتعليم عن بُعد. يُرجى عدم الرد عليها.',

  'invitation.subject': 'دعوة لأداء {titled, select, yes {تقييم «{title}»} other {تقييم الجاهزية}}',
  'invitation.subject.resent': 'تذكير: دعوتك إلى التقييم على {product}',
  'invitation.intro':
    'ندعوك إلى أداء {titled, select, yes {تقييم «{title}»} other {تقييم الجاهزية}} على {product}، لمعرفة مدى جاهزيتك للتعليم عن بُعد.',
  'invitation.time.extra':
    'لديك {ownTime}، بما في ذلك وقتك الإضافي البالغ {extra} (المدة المعتادة {limit})؛ ولا يبدأ المؤقت إلا عند الضغط على «بدء التقييم».',
  'invitation.time.limit':
    'يستغرق التقييم {limit} على الأكثر؛ ولا يبدأ المؤقت إلا عند الضغط على «بدء التقييم».',
  'invitation.time.none': 'لا يبدأ المؤقت إلا عند الضغط على «بدء التقييم».',
  'invitation.duration': '{minutes} و{seconds}',
  'invitation.open': 'للدخول إلى التقييم: {url}',
  'invitation.open.button': 'الدخول إلى التقييم',
  'invitation.copy': 'ويمكنك أيضًا نسخ هذا الرابط ولصقه في المتصفح:',
  'invitation.valid': 'هذا الرابط شخصي ويظل صالحًا حتى {expiresAt}، إلا إذا بدأت التقييم قبل ذلك.',
  'invitation.personal': 'هذا الرابط شخصي ولا تجوز مشاركته مع أحد.',
  'invitation.contact': 'لأي استفسار، يُرجى التواصل مع {contact}.',
  'invitation.contact.inviter': 'لأي استفسار، يُرجى التواصل مع الشخص الذي أرسل إليك الدعوة.',

  'certificate.subject': 'تهانينا! شهادتك لاجتياز {titled, select, yes {«{title}»} other {تقييم الجاهزية}}',
  'certificate.subject.resent':
    'شهادتك لاجتياز {titled, select, yes {«{title}»} other {تقييم الجاهزية}} (إعادة إرسال)',
  'certificate.passed':
    'تهانينا على اجتيازك <strong>{titled, select, yes {«{title}»} other {تقييم الجاهزية}}</strong> بنتيجة <strong>{score}</strong>!',
  'certificate.resent':
    'بناءً على طلبك، نرسل إليك مجددًا شهادتك لاجتياز <strong>{titled, select, yes {«{title}»} other {تقييم الجاهزية}}</strong>.',
  'certificate.attached': 'شهادتك مرفقة بهذه الرسالة بصيغة PDF، ويُرجى الاحتفاظ بها ضمن سجلاتك.',
  'certificate.verify': 'يمكن لأي شخص التحقق من صحتها عبر {url} (رمز التحقق {code}).',
  'certificate.code': 'رمز التحقق:',
  'certificate.verify.there': 'ويمكن لكل من يطّلع عليها التحقق من صحتها عبر هذا الرابط.',
  'certificate.openBadge':
    'شهادتك متاحة أيضًا بصيغة Open Badge، وهي اعتماد موقَّع تقرؤه المحافظ الرقمية وأنظمة أصحاب العمل: {url}',
  'certificate.openBadge.html':
    'شهادتك متاحة أيضًا بصيغة Open Badge، وهي اعتماد موقَّع تقرؤه المحافظ الرقمية وأنظمة أصحاب العمل:',
  'certificate.wishes': 'نتمنى لك دوام التوفيق في دراستك.',
};
